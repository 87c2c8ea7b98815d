/**
 * What the payer's page is refused with: a contract code the element localises, and a plain
 * message safe to show a payer (never an upstream message, a key or a stack trace). A domain
 * error: the payments code throws it without knowing HTTP; the page routes turn it into an answer
 * (page-routes/refusal-answer.ts).
 */
import type { CompanionError, CompanionErrorCode } from '../../contract/companion.js';

export class PayerRefusal extends Error {
  override name = 'PayerRefusal';
  constructor(
    readonly code: CompanionErrorCode,
    message: string,
    readonly details?: CompanionError['error']['details'],
  ) {
    super(message);
  }
}

/** Too many calls or streams: the answer also says when to come back (`Retry-After`, in seconds). */
export class TooManyRequests extends PayerRefusal {
  override name = 'TooManyRequests';
  constructor(
    code: 'RATE_LIMITED' | 'TOO_MANY_NUMBERS',
    message: string,
    /** Absent when waiting does not help (TOO_MANY_NUMBERS). */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

/**
 * The shop's side is busy for a moment and nothing was sent for this request (many payers on one
 * payment link at once): answered 503 with `Retry-After`; the element's "try again" code.
 */
export class TryAgainShortly extends PayerRefusal {
  override name = 'TryAgainShortly';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('SERVICE_UNAVAILABLE', message);
  }
}
