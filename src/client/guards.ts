/**
 * Small hand-written checks of the companion's answers. Why not zod: the browser bundle has a
 * 25 KB gzip budget and even zod/mini costs ~6 KB; the contract is types only for that reason
 * (src/contract/companion.ts). Checks are lenient on extra fields and name the field that is wrong.
 */
import type {
  ApprovalQrView,
  CheckoutView,
  CompanionError,
  LookupResponse,
  OperatorView,
  PaymentView,
  PreviewResponse,
} from '../contract/companion.js';
import type { ClientErrorCode } from './errors.js';

export class AnswerShapeError extends Error {
  override readonly name = 'AnswerShapeError';
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(ok: boolean, what: string, field: string): void {
  if (!ok) {
    throw new AnswerShapeError(
      `The companion's ${what} answer has no valid "${field}": is the companion the same version as the element?`,
    );
  }
}

const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function operator(value: unknown, what: string): OperatorView {
  need(isObj(value), what, 'operator');
  const o = value as Obj;
  for (const field of ['code', 'name', 'logoUrl', 'workflowHint', 'minAmount']) need(str(o[field]), what, field);
  need(strOrNull(o.instructions ?? null), what, 'instructions');
  need(strOrNull(o.maxAmount ?? null), what, 'maxAmount');
  need(typeof o.decimalPlaces === 'number', what, 'decimalPlaces');
  return { ...(o as unknown as OperatorView), instructions: (o.instructions as string | null | undefined) ?? null };
}

export function paymentView(value: unknown): PaymentView {
  const what = 'payment';
  need(isObj(value), what, 'payment');
  const p = value as Obj;
  need(str(p.state), what, 'state');
  need(typeof p.version === 'number', what, 'version');
  need(str(p.orderId), what, 'orderId');
  need(strOrNull(p.authorizationUrl ?? null), what, 'authorizationUrl');
  need(strOrNull(p.instructions ?? null), what, 'instructions');
  need(p.operator === undefined || p.operator === null || isObj(p.operator), what, 'operator');
  return {
    ...(p as unknown as PaymentView),
    phoneNumberMasked: str(p.phoneNumberMasked) ? p.phoneNumberMasked : '',
    operator: isObj(p.operator) ? (p.operator as PaymentView['operator']) : null,
    workflow: str(p.workflow) ? p.workflow : null,
    instructions: (p.instructions as string | null | undefined) ?? null,
    authorizationUrl: (p.authorizationUrl as string | null | undefined) ?? null,
    returned: p.returned === true,
    canRetry: p.canRetry === true,
    updatedAt: str(p.updatedAt) ? p.updatedAt : '',
  };
}

/** `pay` and `status` may answer the view itself or `{ payment: view }`; both are read. */
export function paymentOrNull(value: unknown): PaymentView | null {
  if (value === null) return null;
  if (isObj(value) && 'payment' in value && !('state' in value)) {
    return value.payment === null ? null : paymentView(value.payment);
  }
  return paymentView(value);
}

export function checkoutView(value: unknown): CheckoutView {
  const what = 'checkout';
  need(isObj(value), what, 'checkout');
  const c = value as Obj;
  need(str(c.orderId), what, 'orderId');
  need(str(c.amount), what, 'amount');
  need(str(c.currencyCode), what, 'currencyCode');
  need(str(c.expiresAt), what, 'expiresAt');
  need(Array.isArray(c.countries), what, 'countries');
  for (const country of c.countries as unknown[]) {
    need(isObj(country) && str(country.code) && str(country.name) && str(country.dialCode), what, 'countries[]');
  }
  return {
    ...(c as unknown as CheckoutView),
    decimalPlaces: typeof c.decimalPlaces === 'number' ? c.decimalPlaces : null,
    payment: c.payment === null || c.payment === undefined ? null : paymentView(c.payment),
  };
}

export function lookupResponse(value: unknown): LookupResponse {
  const what = 'lookup';
  need(isObj(value), what, 'lookup');
  const l = value as Obj;
  need(str(l.phoneNumber), what, 'phoneNumber');
  need(str(l.country), what, 'country');
  const preview = l.preview;
  return {
    phoneNumber: l.phoneNumber as string,
    country: l.country as string,
    operator: l.operator === null || l.operator === undefined ? null : operator(l.operator, what),
    wallet: l.wallet === null || l.wallet === undefined ? null : operator(l.wallet, what),
    // Optional (an older companion has none): read when well-formed, else the page previews itself.
    ...(isObj(preview) && typeof preview.useWallet === 'boolean' && str(preview.workflow)
      ? { preview: { useWallet: preview.useWallet, workflow: preview.workflow } }
      : {}),
  };
}

export function previewResponse(value: unknown): PreviewResponse {
  need(isObj(value) && str(value.workflow), 'preview', 'workflow');
  return { workflow: (value as Obj).workflow as string };
}

export function approvalQr(value: unknown): ApprovalQrView {
  need(isObj(value) && str(value.url) && str(value.path) && Number.isInteger(value.size), 'approval-qr', 'url, size and path');
  const { url, size, path } = value as Obj;
  return { url: url as string, size: size as number, path: path as string };
}

const errorCodes: readonly ClientErrorCode[] = [
  'RATE_LIMITED', 'TOO_MANY_NUMBERS', 'BAD_REQUEST', 'TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'ORIGIN_NOT_ALLOWED',
  'INVALID_PHONE', 'NO_OPERATOR', 'AMOUNT_OUT_OF_RANGE', 'AMOUNT_PRECISION', 'OTP_REFUSED', 'PAYMENT_IN_PROGRESS',
  'ALREADY_PAID', 'SERVICE_UNAVAILABLE', 'INTERNAL', 'LINK_USED',
];

/** The error envelope, or null when the body is not one (a proxy's page, a cut connection). */
export function companionError(value: unknown): (Omit<CompanionError['error'], 'code'> & { code: ClientErrorCode }) | null {
  if (!isObj(value) || !isObj(value.error)) return null;
  const e = value.error;
  if (!str(e.code) || !errorCodes.includes(e.code as ClientErrorCode)) return null;
  return {
    code: e.code as ClientErrorCode,
    message: str(e.message) ? e.message : e.code,
    ...(isObj(e.details) ? { details: e.details as CompanionError['error']['details'] } : {}),
  };
}
