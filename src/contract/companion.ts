/**
 * The companion's browser-facing API: what `<momo-checkout>` sends to the merchant's companion
 * server and what it gets back. Shared by the element's client (browser) and the companion
 * (server), so the two cannot drift apart.
 *
 * Types only, on purpose: the browser bundle has a 25 KB budget, so the element's client checks
 * answers with small hand-written guards, and the companion validates what it receives with zod.
 *
 * Every route lives under the companion's mount point (the element's `endpoint` attribute, e.g.
 * `https://shop.example/momo`). Every browser route takes the checkout token as
 * `Authorization: Bearer <token>` (never in a URL, where it would end up in logs), including the
 * status stream, which the element reads with `fetch` rather than `EventSource` for that reason.
 */

/** Paths relative to the companion's mount point. */
export const companionRoutes = {
  /** GET: the checkout (order, served countries, current payment). */
  checkout: '/checkout',
  /** POST {@link LookupRequest}: operators for a complete number and the order's currency. */
  lookup: '/checkout/lookup',
  /** POST {@link PreviewRequest}: which workflow the payment will take (one call per number and choice). */
  preview: '/checkout/preview',
  /** POST {@link PayRequest}: start (or continue, with the OTP) the pay-in. */
  pay: '/checkout/pay',
  /** GET: the current {@link PaymentView}, for pages that cannot hold a stream. */
  status: '/checkout/status',
  /** GET: Server-Sent Events, one `payment` event per transition (data: {@link PaymentView}). */
  events: '/checkout/events',
  /** GET: the payment's approval page as a QR code ({@link ApprovalQrView}), for a payer at a desktop. */
  approvalQr: '/checkout/approval-qr',
  /** GET, browser navigation: the `redirectUrls` target after an authorisation page. */
  returnPrefix: '/return/',
  /** POST: the payment service's notifications (its URL is every pay-in's `webhookUrl`). */
  webhook: '/webhook',
} as const;

/** Workflows named by the service. Other strings may appear and are kept as they are. */
export type Workflow = 'provider_auth' | 'pre_authorized' | 'redirect_url';

/**
 * The approval page's address as a QR code (issue 23, "approve on your phone"), drawn by the
 * companion so the script-tag file carries no encoder: a `size`×`size` grid of modules and the SVG
 * path of its dark ones (unit squares), to draw in `viewBox="0 0 size size"`.
 */
export interface ApprovalQrView {
  /** The address encoded: the payment's current `authorizationUrl`. */
  url: string;
  size: number;
  path: string;
}

export interface CountryView {
  /** ISO 3166-1 alpha-2, e.g. `BJ`. */
  code: string;
  name: string;
  /** e.g. `+229`. */
  dialCode: string;
}

export interface CheckoutView {
  orderId: string;
  /** Decimal string in the major unit, exactly as the merchant's server set it. */
  amount: string;
  currencyCode: string;
  /** Decimals of the currency when the companion knows them (from discovery), else null. */
  decimalPlaces: number | null;
  /** ISO 8601 instant after which the token stops working. */
  expiresAt: string;
  /** Countries served for the order's currency (from `GET /v1/countries`). */
  countries: CountryView[];
  /** The payment of this checkout, if one was started. */
  payment: PaymentView | null;
}

export interface LookupRequest {
  /** What the payer typed, or E.164; the companion normalises it with full metadata. */
  phoneNumber: string;
  /** Country to read a national number in (ISO alpha-2), when the payer chose one. */
  country?: string;
}

export interface OperatorView {
  code: string;
  name: string;
  logoUrl: string;
  /** How to get an OTP; null when the service has none (the element shows its own fallback). */
  instructions: string | null;
  /** Display hint only: the preview and the pay-in decide. */
  workflowHint: string;
  minAmount: string;
  /** null: no ceiling. */
  maxAmount: string | null;
  decimalPlaces: number;
}

export interface LookupResponse {
  /** The number as the service will receive it (strict E.164). */
  phoneNumber: string;
  country: string;
  /** The operator the number's prefix resolves to, for the order's currency; null if none serves it. */
  operator: OperatorView | null;
  /** The overlay wallet, when it is offered for this number and the order's currency. */
  wallet: OperatorView | null;
  /**
   * The fee preview of the default choice (the operator, or the wallet when it is the only one),
   * so the page needs no second round trip. Absent when that preview failed: the page asks
   * `preview` itself and shows why.
   */
  preview?: { useWallet: boolean; workflow: Workflow | (string & {}) };
}

export interface PreviewRequest {
  phoneNumber: string;
  /** True only when the payer explicitly chose the overlay wallet (sends `operatorCode: "wallet"`). */
  useWallet: boolean;
}

export interface PreviewResponse {
  workflow: Workflow | (string & {});
}

export interface PayRequest {
  phoneNumber: string;
  useWallet: boolean;
  /** Exactly what the payer typed (never validated client-side). */
  otp?: string;
}

/**
 * Where a payment stands, as the page sees it.
 *
 * - `needs-otp`: the operator wants a code generated on the handset; re-submit with `otp`.
 * - `pending`: accepted by the service, waiting for the payer's approval (push or OTP corridor).
 * - `awaiting-redirect`: a redirect corridor was accepted, the authorisation URL has not come yet.
 * - `redirect-ready`: `authorizationUrl` is known (https only): the page may navigate there.
 * - `unknown`: the service's answer was lost; the companion is checking (the payer will not be charged twice).
 * - `completed` / `failed`: final, from a verified webhook only.
 */
export type PaymentState = (typeof paymentStates)[number];

/** Every payment state, listed here only (the server API's schema and the Redis scripts read it). */
export const paymentStates = ['needs-otp', 'pending', 'awaiting-redirect', 'redirect-ready', 'unknown', 'completed', 'failed'] as const;

export const finalPaymentStates: readonly PaymentState[] = ['completed', 'failed'];

export interface PaymentView {
  state: PaymentState;
  /** Increases by one at each transition; the stream's event id. */
  version: number;
  orderId: string;
  /** The payer's number with all but its last digits masked. */
  phoneNumberMasked: string;
  operator: { code: string; name: string; logoUrl: string } | null;
  workflow: string | null;
  /** For `needs-otp`: the operator's instructions, or null (the element shows its fallback). */
  instructions: string | null;
  /** For `redirect-ready`: an https URL. */
  authorizationUrl: string | null;
  /** True once the payer came back from an authorisation page (the element shows "confirming"). */
  returned: boolean;
  /**
   * Whether a new attempt (another number or operator) is possible: after `failed`, or while
   * `approvalUnavailable`.
   */
  canRetry: boolean;
  /**
   * Present (true) when the service's approval page for this attempt could not be sent to the payer
   * (the companion refused it: not https, or not on a public address): the payer cannot approve it
   * through this page, so this way of paying is unavailable. Not a failure: the state stays as it is
   * (the service's attempt is left to expire, and a late outcome still shows), and another number,
   * operator or a push may be tried while `canRetry`. Absent from companions before 0.6.0.
   */
  approvalUnavailable?: true;
  /** ISO 8601. */
  updatedAt: string;
}

/** Error codes a browser route may answer; the element localises by code. */
export type CompanionErrorCode =
  | 'BAD_REQUEST'
  | 'TOKEN_MISSING'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'ORIGIN_NOT_ALLOWED'
  | 'INVALID_PHONE'
  | 'NO_OPERATOR'
  | 'AMOUNT_OUT_OF_RANGE'
  /** The order's amount has more decimals than its currency allows: the shop must correct the order. */
  | 'AMOUNT_PRECISION'
  | 'OTP_REFUSED'
  | 'PAYMENT_IN_PROGRESS'
  | 'ALREADY_PAID'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL'
  /** 429: too many calls in a short time from this checkout or this address; wait, then try again. */
  | 'RATE_LIMITED'
  /** 429: this checkout already tried its share of distinct phone numbers; use one of them. */
  | 'TOO_MANY_NUMBERS'
  /** 409: the payment link this checkout came from was just used by another payer (nothing was sent to this one). */
  | 'LINK_USED';

export interface CompanionError {
  error: {
    code: CompanionErrorCode;
    /** Plain English, safe to show a payer; never an upstream message, a key or a stack trace. */
    message: string;
    /** For AMOUNT_OUT_OF_RANGE: the bounds (decimal strings) and currency. */
    details?: { min?: string; max?: string | null; currencyCode?: string };
  };
}

/** Query parameter the return route adds to the merchant's page URL: `success` or `failure`. */
export const returnQueryParam = 'momo_return';

/**
 * Query parameter the return route adds beside `momo_return`: the order id given to
 * `createCheckout`, so that one fixed return page finds the order the payer comes back to.
 */
export const returnOrderQueryParam = 'momo_order';
