/**
 * The checkout's states and the events that move it, as data (STYLE.md, "The checkout flow as an
 * explicit machine"). No DOM, no fetch: the element's controller runs the effects and feeds the
 * results back as events.
 */
export const statuses = [
  'loading', // fetching the checkout (first load, or a retry)
  'entering', // the payer types a number
  'looking-up', // the companion resolves the number's operator(s)
  'previewing', // one fee preview per (number, choice): it tells whether an OTP comes first
  'ready', // number valid, operator known, workflow known: the pay button is live
  'needs-otp', // the payer generates a code on the handset and types it
  'submitting', // the pay-in is being posted (pay button disabled)
  'awaiting-approval', // push (provider_auth) or OTP accepted: waiting for the outcome
  'awaiting-redirect', // redirect corridor accepted, the authorisation URL has not come yet
  'redirecting', // navigating same-tab to the https authorisation URL
  'approval-unavailable', // the approval page was refused by the companion: pay another way (not a failure)
  'confirming', // back from the authorisation page: waiting for the webhook
  'checking', // the service's answer was lost; the companion is checking (never charged twice)
  'succeeded',
  'failed',
  'expired', // no outcome within expiry-seconds: keep the order id as a reference
  'error', // the companion refused (token, origin...) or the network is down: retry
] as const;

export type Status = (typeof statuses)[number];

/** Every event type the machine knows. Payloads live in {@link CheckoutEvent}. */
export const eventTypes = [
  'CHECKOUT_LOADED',
  'CHECKOUT_UNPAYABLE',
  'NUMBER_EDITED',
  'NUMBER_COMPLETE',
  'LOOKUP_OK',
  'LOOKUP_REFUSED',
  'CHOICE_CHANGED',
  'PREVIEW_OK',
  'OTP_STEP',
  'SUBMIT',
  'REJECTED',
  'OTP_REFUSED',
  'PAYMENT_NEEDS_OTP',
  'PAYMENT_PENDING',
  'PAYMENT_AWAITING_REDIRECT',
  'PAYMENT_REDIRECT_READY',
  'PAYMENT_APPROVAL_UNAVAILABLE',
  'PAYMENT_RETURNED',
  'PAYMENT_UNKNOWN',
  'PAYMENT_COMPLETED',
  'PAYMENT_FAILED',
  'REDIRECT_REFUSED',
  'TIMED_OUT',
  'FAILED_REQUEST',
  'RETRY',
  'TRY_AGAIN',
] as const;

export type EventType = (typeof eventTypes)[number];
