/**
 * Part `links/` (docs/architecture.md): payment links (issue 44): their creation rules, the
 * merchant's actions on them, and the checkouts a payer pays through one. May import payments/,
 * stores/, model/ and the foundation; throws LinkError, never an HTTP answer.
 *
 * What a merchant may ask for a link, checked before anything is stored: a currency the service
 * serves, a fixed amount or the payer's bounds in that currency's decimals (the service's figure
 * once discovery has said it, ISO 4217's before; §2.1: never rounded), an expiry in the future and
 * at most a year away, a return URL that is one.
 */
import { compareAmounts, parseAmount, type AmountErrorCode } from '../../contract/money.js';
import { parseIsoInstant } from '../model/iso-time.js';
import { linkRetentionAfterExpiryMs, type LinkRecord } from '../model/link.js';
import { parseReturnUrl } from '../model/urls.js';
import type { CurrencyFacts } from '../payments/currency-facts.js';
import { isoMinorUnits } from '../payments/iso-decimals.js';

/** What the merchant sends to create a link (the server API's body, the console's form, the CLI's flags). */
export interface LinkRequest {
  currencyCode: string;
  description: string;
  /** A fixed amount (decimal string), or leave it out and give `minAmount` and `maxAmount`. */
  amount?: string;
  minAmount?: string;
  maxAmount?: string;
  /** Default false: closed by its first completed payment. */
  reusable?: boolean;
  /** A reusable link's cap on completed payments. */
  maxPayments?: number;
  /** ISO 8601; default {@link defaultLinkLifeMs} from now. */
  expiresAt?: string;
  returnUrl?: string;
}

/** A link expires a week after its creation unless the merchant says otherwise (docs/merchant-guide.md). */
export const defaultLinkLifeMs = 7 * 24 * 3600_000;
/** The longest life a link may be given. */
export const maxLinkLifeMs = 366 * 24 * 3600_000;
const maxDescriptionLength = 200;

export type LinkErrorCode = 'INVALID_LINK' | 'LINK_CONFLICT' | 'LINK_NOT_FOUND' | 'LINKS_UNAVAILABLE';

/** A refused link request: a code the routes map to a status, and a sentence saying what to change. */
export class LinkError extends Error {
  override name = 'LinkError';
  constructor(
    readonly code: LinkErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new LinkError('INVALID_LINK', message);

/** A link's decimals in a currency neither the service (so far) nor ISO 4217 has given a figure for. */
const unknownCurrencyDecimals = 2;

/**
 * The decimals an amount of `currencyCode` may have on a link (its bounds, the payer's choice): the
 * service's figure, else ISO 4217's, else 2, the figure §2.1 gives the one such currency it names
 * (USDC), until the service says its own. A link is paid later, by a payer who cannot correct it: on
 * a process that had not yet seen a number in USDC, 8 let a link (or a payer's amount) of 1.234
 * through, which the payer's lookup then refused with "contact the shop".
 */
export function linkAmountDecimals(currencyCode: string, facts: Pick<CurrencyFacts, 'decimalPlaces'> | null): number {
  return linkAmountPrecision(currencyCode, facts).decimals;
}

/** {@link linkAmountDecimals}, and whether they stand in for a figure nobody has given yet (said when an amount has too many). */
function linkAmountPrecision(currencyCode: string, facts: Pick<CurrencyFacts, 'decimalPlaces'> | null): { decimals: number; standIn: boolean } {
  const given = facts?.decimalPlaces ?? isoMinorUnits(currencyCode);
  return given === null ? { decimals: unknownCurrencyDecimals, standIn: true } : { decimals: given, standIn: false };
}

function amountField(name: string, text: unknown, currencyCode: string, { decimals, standIn: decimalsStandIn }: { decimals: number; standIn: boolean }): string {
  if (typeof text !== 'string') throw invalid(`${name} must be a decimal string such as "5000" or "12.50", never a JSON number (floats lose digits).`);
  const parsed = parseAmount(text, decimals);
  if (!parsed.ok) {
    const standIn = decimalsStandIn && parsed.code === 'TOO_PRECISE' ? ` (${decimals} stand in until the payment service tells this companion ${currencyCode}'s own figure, at its first payer's number in ${currencyCode})` : '';
    throw invalid(`${name} ${JSON.stringify(text)} for ${currencyCode}: ${parsed.message}${standIn}`);
  }
  return parsed.amount;
}

/**
 * The link `request` describes, with `linkId` and the time of `now`; throws a {@link LinkError}
 * naming the field to change.
 */
export function linkFromRequest(request: LinkRequest, context: { linkId: string; now: number; facts: CurrencyFacts; defaultReturnUrl: string | null }): LinkRecord {
  const { currencyCode } = request;
  if (typeof currencyCode !== 'string' || !/^[A-Z]{3,5}$/.test(currencyCode)) throw invalid('currencyCode must be an upper-case code such as XOF, XAF or USD.');
  const { facts } = context;
  if (facts.served === false) {
    throw invalid(`The payment service serves no country in ${currencyCode} (it serves ${facts.servedCurrencies?.join(', ') || 'none right now'}): a payer would find no operator. Use a served currency.`);
  }
  const description = typeof request.description === 'string' ? request.description.trim() : '';
  // Characters as a person counts them, one per code point: `.length` counts UTF-16 units, and
  // refused 150 emoji (two units each) as over 200.
  if (description === '' || [...description].length > maxDescriptionLength) {
    throw invalid(`description must say what the payer pays for, in 1 to ${maxDescriptionLength} characters (it is shown on the link's page and in the card a chat app shows).`);
  }
  const bounds = boundsOf(request, currencyCode, linkAmountPrecision(currencyCode, facts));
  const reusable = request.reusable ?? false;
  if (typeof reusable !== 'boolean') throw invalid('reusable must be true or false.');
  const maxPayments = request.maxPayments ?? null;
  if (maxPayments !== null && (!Number.isInteger(maxPayments) || maxPayments < 1 || maxPayments > 1_000_000)) throw invalid('maxPayments must be a whole number from 1 to 1000000.');
  if (maxPayments !== null && !reusable) throw invalid('maxPayments is for a reusable link: a single-use link takes one payment. Send "reusable": true with it, or leave it out.');
  const expiresAt = expiryOf(request.expiresAt, context.now);
  const returnUrl = request.returnUrl === undefined ? context.defaultReturnUrl : parseReturnUrl(request.returnUrl);
  if (returnUrl === null && request.returnUrl !== undefined) {
    throw invalid(`returnUrl ${JSON.stringify(request.returnUrl)} is not an absolute http(s) URL with a host: give your page, e.g. https://shop.example/thanks.`);
  }
  return {
    linkId: context.linkId,
    createdAt: context.now,
    currencyCode,
    description,
    ...bounds,
    reusable,
    maxPayments,
    expiresAt,
    returnUrl,
    closedAt: null,
    completedPayments: 0,
    checkoutsCreated: 0,
    payments: [],
    revision: 0,
    retainUntil: expiresAt + linkRetentionAfterExpiryMs,
  };
}

function boundsOf(request: LinkRequest, currencyCode: string, precision: { decimals: number; standIn: boolean }): Pick<LinkRecord, 'amount' | 'minAmount' | 'maxAmount'> {
  const hasBounds = request.minAmount !== undefined || request.maxAmount !== undefined;
  if (request.amount !== undefined) {
    if (hasBounds) throw invalid('Give either amount (a fixed price) or minAmount and maxAmount (the payer chooses within them), not both.');
    return { amount: amountField('amount', request.amount, currencyCode, precision), minAmount: null, maxAmount: null };
  }
  if (request.minAmount === undefined || request.maxAmount === undefined) {
    throw invalid('Give amount (a fixed price, e.g. "5000"), or both minAmount and maxAmount (the payer chooses an amount within them).');
  }
  const minAmount = amountField('minAmount', request.minAmount, currencyCode, precision);
  const maxAmount = amountField('maxAmount', request.maxAmount, currencyCode, precision);
  if (compareAmounts(minAmount, maxAmount) > 0) throw invalid(`minAmount ${minAmount} is above maxAmount ${maxAmount}: swap them.`);
  return { amount: null, minAmount, maxAmount };
}

function expiryOf(text: unknown, now: number): number {
  if (text === undefined) return now + defaultLinkLifeMs;
  // A real day and time with its zone: Date.parse would move 2027-02-30 to 2 March, and read a
  // time without a zone in the server's own.
  const at = typeof text === 'string' ? parseIsoInstant(text, { dateAlone: false }) : Number.NaN;
  if (Number.isNaN(at)) {
    throw invalid(`expiresAt must be an ISO 8601 time on a real day, with its zone (Z or an offset), such as "2026-12-31T23:59:00Z", not ${JSON.stringify(text)}.`);
  }
  if (at <= now) throw invalid(`expiresAt ${text} has already passed: give a time in the future (default: ${defaultLinkLifeMs / 86_400_000} days from now).`);
  if (at - now > maxLinkLifeMs) throw invalid('expiresAt is more than a year away: give a nearer time (create a new link when it expires).');
  return at;
}

/** Why a payer's amount was refused; the link's page says it in the payer's language (page-routes/link-page-text.ts). */
export type PayerAmountProblem = 'empty' | 'digits' | 'too-precise' | 'out-of-bounds';

const problemOf: Record<Exclude<AmountErrorCode, 'EMPTY'>, PayerAmountProblem> = {
  NOT_A_NUMBER: 'digits',
  SIGNED: 'digits',
  EXPONENT: 'digits',
  SEPARATOR: 'digits',
  TOO_PRECISE: 'too-precise',
  ZERO: 'out-of-bounds',
  TOO_LARGE: 'out-of-bounds',
};

/**
 * Digits in groups of three split by a space (plain, no-break or narrow no-break), as the page
 * shows its bounds in French ("1 000 F CFA"): a payer types "2 500". Only spaces: a comma or a dot
 * between groups could be a decimal mark, and an amount is never guessed.
 */
const spaceGroupedDigits = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?$/;

/** The amount a payer chose, checked against the link: its fixed amount, or within its bounds in the currency's decimals. */
export function payerAmountOf(link: LinkRecord, chosen: unknown, decimals: number): { ok: true; amount: string } | { ok: false; problem: PayerAmountProblem } {
  if (link.amount !== null) return { ok: true, amount: link.amount };
  if (typeof chosen !== 'string') return { ok: false, problem: 'empty' };
  const typed = chosen.trim();
  const parsed = parseAmount(spaceGroupedDigits.test(typed) ? typed.replace(/[ \u00a0\u202f]/g, '') : typed, decimals);
  if (!parsed.ok) return { ok: false, problem: parsed.code === 'EMPTY' ? 'empty' : problemOf[parsed.code] };
  if (compareAmounts(parsed.amount, link.minAmount!) < 0 || compareAmounts(parsed.amount, link.maxAmount!) > 0) return { ok: false, problem: 'out-of-bounds' };
  return { ok: true, amount: parsed.amount };
}
