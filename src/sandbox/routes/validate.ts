/** Field checks shared by pay-in (§2.3), pay-out (§2.4) and the preview (§4.2). */
import type { CorridorDef, OperatorDef, CountryDef } from '../catalogue/catalogue.js';
import { currencies } from '../catalogue/catalogue.js';
import { checkDecimals, readRawAmount } from '../amount.js';
import { fail } from '../envelope.js';
import { readJsonBody } from '../request-body.js';
import { chooseOperator, corridorFor, isStrictE164, resolveNumber } from '../catalogue/resolve.js';

export interface ResolvedPayment {
  amount: string;
  rawAmount: string;
  phoneNumber: string;
  currencyCode: string;
  country: CountryDef;
  operator: OperatorDef;
  corridor: CorridorDef;
  decimalPlaces: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; response: Response };

const invalid = (message: string): { ok: false; response: Response } => ({
  ok: false,
  response: fail(400, 'VALIDATION_ERROR', message),
});

/**
 * `rawAmount` is the amount's text (raw body text, or the query value); `amountIsNumber` says
 * whether the body held a JSON number (§2.3: `amount` is a number; a string is refused).
 */
export function checkPayment(input: {
  phoneNumber: unknown;
  currencyCode: unknown;
  rawAmount: string | undefined;
  operatorCode: unknown;
}): Checked<ResolvedPayment> {
  const { phoneNumber, currencyCode, rawAmount } = input;
  if (rawAmount === undefined) return invalid('amount is required and must be a JSON number in the major unit (e.g. 5000)');
  if (typeof phoneNumber !== 'string' || phoneNumber.length === 0) return invalid('phoneNumber is required (strict E.164 without spaces, e.g. +2290196000001)');
  if (!isStrictE164(phoneNumber)) {
    return invalid('phoneNumber must be strict E.164: + then digits, no spaces or separators');
  }
  if (typeof currencyCode !== 'string' || currencyCode.length === 0) return invalid('currencyCode is required (e.g. XOF)');
  const amount = readRawAmount(rawAmount);
  if (!amount.ok) return invalid(amount.message);
  const resolved = resolveNumber(phoneNumber);
  if (!resolved) return invalid('no corridor serves this number: its country or length is unknown to the sandbox (see GET /_sandbox/numbers)');
  const operator = chooseOperator(resolved, input.operatorCode);
  if (!operator) {
    return invalid(
      input.operatorCode === 'wallet'
        ? `the overlay wallet is not offered in ${resolved.country.name}; do not send operatorCode "wallet" for this number`
        : 'no operator serves this number\'s prefix',
    );
  }
  const corridor = corridorFor(operator, currencyCode);
  if (!corridor) {
    const served = operator.corridors.map((entry) => entry.currencyCode).join(', ');
    return invalid(`${operator.name} does not serve ${currencyCode} for this number; it serves ${served}`);
  }
  const decimalPlaces = currencies[currencyCode]?.decimalPlaces ?? 0;
  const tooPrecise = checkDecimals(amount.decimalsWritten, decimalPlaces, currencyCode);
  if (tooPrecise) return invalid(tooPrecise);
  return {
    ok: true,
    value: {
      amount: amount.amount,
      // A JSON exponent would be signed as written, which is legal but odd; the canonical digits are safer.
      rawAmount: /[eE]/.test(rawAmount) ? amount.amount : rawAmount.trim(),
      phoneNumber,
      currencyCode,
      country: resolved.country,
      operator,
      corridor,
      decimalPlaces,
    },
  };
}

/** §2.3: orderId is the caller's own string identifier. */
export function checkOrderId(orderId: unknown): string | undefined {
  return typeof orderId === 'string' && orderId.length > 0 ? orderId : undefined;
}

/** The opening of a pay-in or pay-out: a JSON object body (amount read as written) with an orderId. */
export async function readOrderRequest(request: Request): Promise<Checked<{ body: Record<string, unknown>; rawAmount: string | undefined; orderId: string }>> {
  const read = await readJsonBody(request);
  if (!read.ok) return { ok: false, response: fail(400, 'VALIDATION_ERROR', read.message) };
  const orderId = checkOrderId(read.body.orderId);
  if (orderId === undefined) return { ok: false, response: fail(400, 'VALIDATION_ERROR', 'orderId is required: a non-empty string, your own reconciliation key') };
  return { ok: true, value: { body: read.body, rawAmount: read.rawAmount, orderId } };
}

/** §2.3 webhookUrl: accepted with http:// at validation; refused only at emission (§6.4). */
export function checkWebhookUrl(value: unknown): Checked<string | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'string' || !isHttpUrl(value)) return invalid('webhookUrl must be an http(s) URL');
  return { ok: true, value };
}

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
