import type { CheckoutView, CompanionErrorCode, LookupResponse, PaymentView } from '../contract/companion.js';

/**
 * Why something went wrong, as a code the element localises and the page receives (`momo-error`).
 * The companion's codes, plus what the browser itself detects:
 *
 * - `ENDPOINT_MISSING`: the element has no `endpoint` (`TOKEN_MISSING` likewise for `token`).
 * - `ENDPOINT_UNREACHABLE`: the first request got no companion answer while the browser is online
 *   (wrong host or path, CORS refused, TLS).
 * - `NETWORK`: a request failed with the browser offline, or after the checkout had loaded.
 * - `RATE_LIMITED`: a `429`.
 * - `UNEXPECTED_ANSWER`: an answer outside the contract (the companion and element versions differ).
 * - `UNSAFE_REDIRECT`: an authorisation URL that is not https.
 * - `ORDER_NOT_PAYABLE`: no country serves the order's currency.
 */
export type ProblemCode =
  | CompanionErrorCode
  | 'RATE_LIMITED'
  | 'NETWORK'
  | 'ENDPOINT_MISSING'
  | 'ENDPOINT_UNREACHABLE'
  | 'UNEXPECTED_ANSWER'
  | 'UNSAFE_REDIRECT'
  | 'ORDER_NOT_PAYABLE';

export interface Problem {
  code: ProblemCode;
  /** For AMOUNT_OUT_OF_RANGE: the bounds, to say them to the payer. */
  details?: { min?: string; max?: string | null; currencyCode?: string };
  /** For the page's developer (plain English, never shown to the payer, who gets the localised text). */
  message?: string;
  /** The HTTP status of the answer, when there was one. */
  httpStatus?: number;
}

type PaymentEventType =
  | 'PAYMENT_NEEDS_OTP'
  | 'PAYMENT_PENDING'
  | 'PAYMENT_AWAITING_REDIRECT'
  | 'PAYMENT_REDIRECT_READY'
  | 'PAYMENT_APPROVAL_UNAVAILABLE'
  | 'PAYMENT_RETURNED'
  | 'PAYMENT_UNKNOWN'
  | 'PAYMENT_COMPLETED'
  | 'PAYMENT_FAILED';

export type PaymentEvent = { type: PaymentEventType; payment: PaymentView };

export type CheckoutEvent =
  | { type: 'CHECKOUT_LOADED'; checkout: CheckoutView }
  | { type: 'CHECKOUT_UNPAYABLE'; checkout: CheckoutView }
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
 * The event a loaded checkout stands for: with no country served (no corridor takes the order's
 * currency) and no payment, the payer could only stare at an empty list: say so instead.
 */
export function eventForCheckout(checkout: CheckoutView): CheckoutEvent {
  if (checkout.countries.length === 0 && checkout.payment === null) return { type: 'CHECKOUT_UNPAYABLE', checkout };
  return { type: 'CHECKOUT_LOADED', checkout };
}

/**
 * The event a payment view stands for. A view the payer came back to (`returned`) and that is not
 * final reads as "confirming", whatever its state (issue 4 §1, redirect).
 */
export function eventForPayment(payment: PaymentView): PaymentEvent {
  if (payment.state === 'completed') return { type: 'PAYMENT_COMPLETED', payment };
  if (payment.state === 'failed') return { type: 'PAYMENT_FAILED', payment };
  // The approval page will never come (the companion refused it): say so now, not after the wait.
  if (payment.approvalUnavailable === true) return { type: 'PAYMENT_APPROVAL_UNAVAILABLE', payment };
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
