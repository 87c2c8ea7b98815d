import type { CheckoutView, CompanionErrorCode, LookupResponse, PaymentView } from '../contract/companion.js';

/**
 * Why something went wrong, as a code the element localises. The companion's codes, plus what the
 * browser itself detects: the network is down, an answer it cannot read, a redirect that is not https.
 */
export type ProblemCode = CompanionErrorCode | 'NETWORK' | 'UNEXPECTED_ANSWER' | 'UNSAFE_REDIRECT';

export interface Problem {
  code: ProblemCode;
  /** For AMOUNT_OUT_OF_RANGE: the bounds, to say them to the payer. */
  details?: { min?: string; max?: string | null; currencyCode?: string };
}

type PaymentEventType =
  | 'PAYMENT_NEEDS_OTP'
  | 'PAYMENT_PENDING'
  | 'PAYMENT_AWAITING_REDIRECT'
  | 'PAYMENT_REDIRECT_READY'
  | 'PAYMENT_RETURNED'
  | 'PAYMENT_UNKNOWN'
  | 'PAYMENT_COMPLETED'
  | 'PAYMENT_FAILED';

export type PaymentEvent = { type: PaymentEventType; payment: PaymentView };

export type CheckoutEvent =
  | { type: 'CHECKOUT_LOADED'; checkout: CheckoutView }
  | { type: 'NUMBER_EDITED' }
  | { type: 'NUMBER_COMPLETE'; phoneNumber: string }
  | { type: 'LOOKUP_OK'; lookup: LookupResponse }
  | { type: 'LOOKUP_REFUSED'; problem: Problem }
  | { type: 'CHOICE_CHANGED'; useWallet: boolean }
  | { type: 'PREVIEW_OK'; workflow: string }
  | { type: 'OTP_STEP' }
  | { type: 'SUBMIT' }
  | { type: 'REJECTED'; problem: Problem }
  | { type: 'OTP_REFUSED'; problem: Problem }
  | PaymentEvent
  | { type: 'REDIRECT_REFUSED' }
  | { type: 'TIMED_OUT' }
  | { type: 'FAILED_REQUEST'; problem: Problem }
  | { type: 'RETRY' }
  | { type: 'TRY_AGAIN' };

/**
 * The event a payment view stands for. A view the payer came back to (`returned`) and that is not
 * final reads as "confirming", whatever its state (issue 4 §1, redirect).
 */
export function eventForPayment(payment: PaymentView): PaymentEvent {
  if (payment.state === 'completed') return { type: 'PAYMENT_COMPLETED', payment };
  if (payment.state === 'failed') return { type: 'PAYMENT_FAILED', payment };
  if (payment.returned) return { type: 'PAYMENT_RETURNED', payment };
  switch (payment.state) {
    case 'needs-otp':
      return { type: 'PAYMENT_NEEDS_OTP', payment };
    case 'pending':
      return { type: 'PAYMENT_PENDING', payment };
    case 'awaiting-redirect':
      return { type: 'PAYMENT_AWAITING_REDIRECT', payment };
    case 'redirect-ready':
      return { type: 'PAYMENT_REDIRECT_READY', payment };
    default:
      // 'unknown', and any state a newer companion may add: the payer waits, never pays twice.
      return { type: 'PAYMENT_UNKNOWN', payment };
  }
}
