/**
 * Errors the browser routes answer: a contract code the element localises, and a plain message
 * safe to show a payer. Never an upstream message, a key or a stack trace.
 */
import type { CompanionError, CompanionErrorCode } from '../../contract/companion.js';

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
};

export class CompanionHttpError extends Error {
  override name = 'CompanionHttpError';
  constructor(
    readonly code: CompanionErrorCode,
    message: string,
    readonly details?: CompanionError['error']['details'],
  ) {
    super(message);
  }

  get status(): number {
    return statusOf[this.code];
  }

  toBody(): CompanionError {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/**
 * A body refused unread or unparsed (too large, not JSON): answered with `Connection: close`, because
 * the adapter stops reading it and then closes the socket; a client that pooled it would otherwise
 * send its next request on a socket being closed ("other side closed").
 */
export class BodyRefusedError extends CompanionHttpError {
  override name = 'BodyRefusedError';
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

/** A 429: the answer also says when to come back (`Retry-After`, in seconds). */
export class RateLimitedError extends CompanionHttpError {
  override name = 'RateLimitedError';
  constructor(
    code: 'RATE_LIMITED' | 'TOO_MANY_NUMBERS',
    message: string,
    /** Absent when waiting does not help (TOO_MANY_NUMBERS). */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}
