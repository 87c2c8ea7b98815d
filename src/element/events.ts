import type { PaymentView } from '../contract/companion.js';
import type { ProblemCode } from '../machine/events.js';
import type { Status } from '../machine/states.js';

// Events bubble and are composed so a page listening on an ancestor hears them through the shadow root.
const init = { bubbles: true, composed: true } as const;

export interface StateChangeDetail {
  status: Status;
  previous: Status;
}

/** `momo-state-change`: the checkout moved to another step. */
export class MomoStateChangeEvent extends Event {
  constructor(readonly detail: StateChangeDetail) {
    super('momo-state-change', init);
  }
}

export interface SubmitDetail {
  /** E.164 when the browser could read it, else as typed (the companion validates). */
  phoneNumber: string;
  useWallet: boolean;
  /** True when this submit carries the payer's OTP. */
  withOtp: boolean;
}

/** `momo-submit`: the payer asked to pay. Cancelable: `preventDefault()` vetoes the pay-in. */
export class MomoSubmitEvent extends Event {
  constructor(readonly detail: SubmitDetail) {
    super('momo-submit', { ...init, cancelable: true });
  }
}

export interface OutcomeDetail {
  orderId: string;
  payment: PaymentView;
}

/** `momo-succeeded`: the payment is completed (from a verified webhook, through the companion). */
export class MomoSucceededEvent extends Event {
  constructor(readonly detail: OutcomeDetail) {
    super('momo-succeeded', init);
  }
}

/** `momo-failed`: the payment failed; `detail.payment.canRetry` says whether another attempt is possible. */
export class MomoFailedEvent extends Event {
  constructor(readonly detail: OutcomeDetail) {
    super('momo-failed', init);
  }
}

/** Why the element failed or refused, as a stable code (see {@link ProblemCode}). */
export type MomoErrorCode = ProblemCode;

export interface ErrorDetail {
  /**
   * Stable, for code: `TOKEN_MISSING`, `ENDPOINT_MISSING`, `TOKEN_INVALID`, `TOKEN_EXPIRED`,
   * `ORIGIN_NOT_ALLOWED`, `ENDPOINT_UNREACHABLE`, `NETWORK`, `SERVICE_UNAVAILABLE`, `RATE_LIMITED`,
   * `ORDER_NOT_PAYABLE`, `UNEXPECTED_ANSWER`, `UNSAFE_REDIRECT`, `INTERNAL`, `BAD_REQUEST`, and the
   * payer's own refusals (`INVALID_PHONE`, `NO_OPERATOR`, `AMOUNT_OUT_OF_RANGE`, `OTP_REFUSED`,
   * `PAYMENT_IN_PROGRESS`, `ALREADY_PAID`), which the element explains to the payer itself.
   */
  code: MomoErrorCode;
  /** Plain English for the page's developer (what to check); the payer sees the element's own text. */
  message: string;
  /** The companion's HTTP status, when it answered. */
  httpStatus?: number;
}

/**
 * `momo-error`: something failed or was refused, with a stable `code` (as Adyen's `onError` and
 * Stripe's error objects give one). Fired after the `momo-state-change` it caused.
 */
export class MomoErrorEvent extends Event {
  constructor(readonly detail: ErrorDetail) {
    super('momo-error', init);
  }
}

declare global {
  interface HTMLElementEventMap {
    'momo-state-change': MomoStateChangeEvent;
    'momo-submit': MomoSubmitEvent;
    'momo-succeeded': MomoSucceededEvent;
    'momo-failed': MomoFailedEvent;
    'momo-error': MomoErrorEvent;
  }
}
