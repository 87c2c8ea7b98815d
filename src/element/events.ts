import type { PaymentView } from '../contract/companion.js';
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

declare global {
  interface HTMLElementEventMap {
    'momo-state-change': MomoStateChangeEvent;
    'momo-submit': MomoSubmitEvent;
    'momo-succeeded': MomoSucceededEvent;
    'momo-failed': MomoFailedEvent;
  }
}
