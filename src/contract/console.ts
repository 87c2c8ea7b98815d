/**
 * What the operations console's page and the companion's console routes agree on: the JSON of
 * `<publicUrl>/console/api/*`. Times are ISO 8601 strings, amounts canonical decimal strings, and
 * phone numbers only ever masked: the page never sees a full number, a token or a secret.
 */
import type { ApprovalQrView, PaymentState } from './companion.js';

/** The path under the companion's mount path where the console lives. */
export const consolePath = '/console';

/** The header every console POST carries its session's CSRF token in. */
export const csrfHeader = 'x-momo-csrf';

/** `GET /console/api/session`: what the page needs to act (never the secret it signed in with). */
export interface ConsoleSession {
  csrfToken: string;
  expiresAt: string;
  /** Whether a merchant endpoint is configured: without one there is nothing to re-send or test. */
  merchantEndpoint: boolean;
  /** Whether refunds are switched on (MOMO_REFUNDS=on). */
  refunds: boolean;
}

/** Every payment state, in the order the list's filter offers them. */
export const consolePaymentStates: readonly PaymentState[] = ['completed', 'failed', 'pending', 'awaiting-redirect', 'redirect-ready', 'needs-otp', 'unknown'];

/** Filters of the payments list: a state (or `open`, or `stale`), an age window, an order id. */
export interface ConsolePaymentFilter {
  state?: PaymentState | 'open' | 'stale';
  /** Only payments changed within this many hours. */
  withinHours?: number;
  /** An order id (the merchant's, or an attempt's own id as the service knows it). */
  orderId?: string;
}

export interface ConsolePaymentRow {
  orderId: string;
  amount: string;
  currencyCode: string;
  phoneNumberMasked: string;
  /** The operator's name, null until discovery named it. */
  operator: string | null;
  state: PaymentState;
  updatedAt: string;
  ageMinutes: number;
}

/**
 * An order searched by id whose checkout exists but has no payment yet (issue 32): the operator
 * reads "checkout created at …, not paid yet, expires at …", not "no payment matches".
 */
export interface ConsoleUnpaidCheckout {
  orderId: string;
  amount: string;
  currencyCode: string;
  createdAt: string;
  expiresAt: string;
}

/** `GET /api/payments`: the list, and for an order id with a checkout but no payment, that checkout. */
export interface ConsolePaymentList {
  payments: ConsolePaymentRow[];
  unpaidCheckout?: ConsoleUnpaidCheckout;
}

export type ConsoleTimelineItem =
  | { kind: 'state'; at: string; state: PaymentState; attempt: number }
  | { kind: 'notification'; at: string; status: string; serviceOrderId: string }
  | { kind: 'delivery'; at: string; deliveryId: string; sink: 'callback' | 'webhook'; ok: boolean; status: number | null; durationMs: number | null; error: string | null }
  | { kind: 'refund'; at: string; refundId: string; amount: string; state: string };

export interface ConsolePaymentDetail extends ConsolePaymentRow {
  serviceOrderId: string;
  transactionId: string | null;
  /** Oldest first. */
  timeline: ConsoleTimelineItem[];
  /** Merchant notifications not yet acknowledged (queued or retrying). */
  undelivered: number;
  /** The part of the amount paid not yet refunded (or being refunded); "0" when nothing is left. */
  refundable: string;
}

export interface ConsoleStaleItem {
  orderId: string;
  serviceOrderId: string;
  transactionId: string | null;
  amount: string;
  currencyCode: string;
  ageMinutes: number;
  /** The sentence to send to the payment service's support. */
  action: string;
}

/** One hour of the last 24: how many payments started in it ended each way (or are still open). */
export interface ConsoleHour {
  start: string;
  completed: number;
  failed: number;
  open: number;
}

/** Completed out of finished payments; `rate` is null when none finished. */
export interface ConsoleRate {
  completed: number;
  finished: number;
  rate: number | null;
}

export interface ConsoleOperatorRate {
  operator: string;
  lastHour: ConsoleRate;
  lastDay: ConsoleRate;
  /** The operator's rate over the week before the last hour: its usual one. */
  usual: ConsoleRate;
  /** The last hour's rate fell well below the usual one (with enough payments to tell). */
  belowUsual: boolean;
}

export interface ConsoleOverview {
  hours: ConsoleHour[];
  operators: ConsoleOperatorRate[];
  stale: ConsoleStaleItem[];
  staleAfterMinutes: number;
  /**
   * Released script-tag files the installed package lacks or holds with other bytes, a sentence
   * each: a shop page that pins one shows no checkout. Empty when all are there (issue 41).
   */
  packageProblems: string[];
}

export interface ConsoleEndpointDelivery {
  orderId: string;
  at: string;
  ok: boolean;
  status: number | null;
  durationMs: number | null;
  error: string | null;
}

export interface ConsoleEndpointHealth {
  /** The merchant endpoint's URL, null when the companion sends no merchant notifications. */
  url: string | null;
  /** Newest first. */
  deliveries: ConsoleEndpointDelivery[];
}

/** `POST /console/api/endpoint/test`: the endpoint's answer to a signed test notification. */
export interface ConsolePingResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** `POST /console/api/payments/{orderId}/redeliver`: each notification sent again and how it went. */
export interface ConsoleRedelivery {
  deliveries: Array<{ webhookId: string; reportedState: string; delivered: boolean; status: number | null; error: string | null }>;
}

/** Every refusal of a console route: a code and a sentence the operator can act on. */
export interface ConsoleError {
  error: { code: string; message: string };
}

/** `console/api/links/currency`: the currency the link form offers (the newest link's or payment's; null before either). */
export interface ConsoleLinkCurrency {
  currencyCode: string | null;
}

export type ConsoleLinkState = 'open' | 'closed' | 'expired' | 'used-up';

/** A payment link as the console's routes give it (the server API's `Link`). */
export interface ConsoleLink {
  linkId: string;
  url: string;
  state: ConsoleLinkState;
  currencyCode: string;
  description: string;
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  reusable: boolean;
  maxPayments: number | null;
  completedPayments: number;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
}

/** A page of links, the newest first; `next` goes as `before` for the following page. */
export interface ConsoleLinkList {
  links: ConsoleLink[];
  next: string | null;
}

/** A link just made (`POST console/api/links`): with its address as a QR code's modules. */
export interface ConsoleNewLink extends ConsoleLink {
  qr: ApprovalQrView;
}

/** A link with the payments made through it, the oldest first, and its QR code. */
export interface ConsoleLinkDetail extends ConsoleNewLink {
  payments: { orderId: string; amount: string; state: PaymentState; updatedAt: string }[];
}
