/**
 * The page routes' answer to a {@link PayerRefusal}: its HTTP status, and the contract's error body.
 * The one place a refusal's code meets HTTP.
 */
import type { CompanionError, CompanionErrorCode } from '../../contract/companion.js';
import { PayerRefusal } from '../model/payer-refusal.js';

const statusOf: Record<CompanionErrorCode, number> = {
  BAD_REQUEST: 400,
  TOKEN_MISSING: 401,
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  ORIGIN_NOT_ALLOWED: 403,
  INVALID_PHONE: 400,
  NO_OPERATOR: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  AMOUNT_PRECISION: 400,
  OTP_REFUSED: 400,
  PAYMENT_IN_PROGRESS: 409,
  ALREADY_PAID: 409,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  RATE_LIMITED: 429,
  TOO_MANY_NUMBERS: 429,
  LINK_USED: 409,
};

export function refusalStatus(refusal: PayerRefusal): number {
  return statusOf[refusal.code];
}

export function refusalBody(refusal: PayerRefusal): CompanionError {
  return { error: { code: refusal.code, message: refusal.message, ...(refusal.details ? { details: refusal.details } : {}) } };
}

/**
 * A body refused unread or unparsed (too large, not JSON): answered with `Connection: close`, because
 * the adapter stops reading it and then closes the socket; a client that pooled it would otherwise
 * send its next request on a socket being closed ("other side closed").
 */
export class BodyRefusedError extends PayerRefusal {
  override name = 'BodyRefusedError';
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}
