/**
 * The payments a merchant must look at. The service gives an API key no way to poll an outcome,
 * and sends each notification once; a lost one is re-emitted only by its support, from the
 * `transactionId`. So the companion lists what is stuck, with the sentence to send to support.
 */
import { finalPaymentStates, type PaymentState } from '../../contract/companion.js';
import { redactPhone } from '../../contract/phone.js';
import type { CheckoutRecord } from '../model/records.js';
import { authorizationUrlRefusalText } from '../model/urls.js';
import { heldForSupport } from '../model/payment-view.js';
import { recordsNeedingSupport } from '../stores/support-views.js';
import type { RefundRecord, RefundState } from '../model/refund.js';
import { refundAdvice, stuckRefunds } from './stuck-refunds.js';
import type { CheckoutStore } from '../stores/store.js';
import { companionDefaults, defaultPaymentListLimit } from '../model/option-defaults.js';

/** Payment states that still wait for the service's word. */
export const openPaymentStates: readonly PaymentState[] = ['unknown', 'pending', 'awaiting-redirect', 'redirect-ready'];

export interface PaymentSummary {
  orderId: string;
  /** The order id the service knows this attempt by (`orderId`, or a retry's own id). */
  serviceOrderId: string;
  /** The service's id from its pay-in answer; null when the answer was lost. */
  transactionId: string | null;
  amount: string;
  currencyCode: string;
  phoneNumberMasked: string;
  state: PaymentState;
  /** ISO 8601 time of the payment's last change. */
  updatedAt: string;
  /** Minutes since the last change. */
  ageMinutes: number;
  /** A validly signed notification this server refused for its timestamp, if any. */
  refusedNotification: { status: string; sentAt: string } | null;
  /**
   * Set when what is stuck is a refund of this payment, not the payment itself: then
   * `serviceOrderId`, `transactionId`, `amount`, the number, the times and `refusedNotification`
   * are the refund's pay-out's.
   */
  refund: { refundId: string; state: RefundState } | null;
  /** What to do, in a sentence a merchant can act on (or send to the service's support). */
  action: string;
}

export interface PaymentListQuery {
  /** `'stale'`: open payments unchanged for `olderThanMinutes` (default 15); or one state; default any. */
  state?: PaymentState | 'stale';
  /** Only payments unchanged for at least this many minutes. */
  olderThanMinutes?: number;
  limit?: number;
}

export const defaultStaleMinutes = companionDefaults.staleAfterMinutes;

export async function listPaymentSummaries(store: CheckoutStore, query: PaymentListQuery, now: number): Promise<PaymentSummary[]> {
  const stale = query.state === 'stale';
  const olderThan = query.olderThanMinutes ?? (stale ? defaultStaleMinutes : undefined);
  const states: readonly PaymentState[] | undefined = stale ? openPaymentStates : query.state && query.state !== 'stale' ? [query.state] : undefined;
  const limit = query.limit ?? defaultPaymentListLimit;
  const records = await store.listPayments({
    ...(states ? { states } : {}),
    ...(olderThan !== undefined ? { updatedBefore: now - olderThan * 60_000 } : {}),
    limit,
  });
  const found = records.map((record) => summarise(record, now));
  if (!stale) return found;
  // What needs a person comes first, the newest first, from the store's support index (never a
  // capped scan, which at a busy shop's volume hid the newest): a payment held for a differing
  // amount or number or with a refused notification (whatever its age), a refund with no outcome
  // past the threshold (stuck-refunds.ts). Then the open payments without news, the oldest first.
  const support: PaymentSummary[] = [];
  for (const record of await recordsNeedingSupport(store)) {
    const payment = record.payment!;
    const refused = !finalPaymentStates.includes(payment.state) && payment.refusedNotification;
    if (heldForSupport(payment) || refused) support.push(summarise(record, now));
    for (const refund of stuckRefunds(record, now - (olderThan ?? defaultStaleMinutes) * 60_000)) support.push(summariseRefund(record, refund, now));
  }
  const listed = new Set(support.filter((item) => !item.refund).map((item) => item.orderId));
  return [...support, ...found.filter((item) => !listed.has(item.orderId))].slice(0, limit);
}

export function summarise(record: CheckoutRecord, now: number): PaymentSummary {
  const payment = record.payment!;
  const refused = payment.refusedNotification ?? null;
  return {
    orderId: record.orderId,
    serviceOrderId: payment.serviceOrderId,
    transactionId: payment.transactionId ?? null,
    amount: record.amount,
    currencyCode: record.currencyCode,
    phoneNumberMasked: redactPhone(payment.phoneNumber),
    state: payment.state,
    updatedAt: new Date(payment.updatedAt).toISOString(),
    ageMinutes: Math.floor((now - payment.updatedAt) / 60_000),
    refusedNotification: refused && { status: refused.status, sentAt: new Date(refused.sentAt).toISOString() },
    refund: null,
    action: adviceFor(record),
  };
}

/** A stuck refund, as a line of the stale list: its pay-out's ids, amount and number. */
export function summariseRefund(record: CheckoutRecord, refund: RefundRecord, now: number): PaymentSummary {
  const refused = refund.refusedNotification ?? null;
  return {
    orderId: record.orderId,
    serviceOrderId: refund.payoutOrderId,
    transactionId: refund.transactionId,
    amount: refund.amount,
    currencyCode: record.currencyCode,
    phoneNumberMasked: redactPhone(refund.phoneNumber),
    state: record.payment!.state,
    updatedAt: new Date(refund.updatedAt).toISOString(),
    ageMinutes: Math.floor((now - refund.updatedAt) / 60_000),
    refusedNotification: refused && { status: refused.status, sentAt: new Date(refused.sentAt).toISOString() },
    refund: { refundId: refund.refundId, state: refund.state },
    action: refundAdvice(record, refund),
  };
}

function adviceFor(record: CheckoutRecord): string {
  const payment = record.payment!;
  const amount = `${record.amount} ${record.currencyCode}`;
  const transaction = payment.transactionId ? `transaction ${payment.transactionId} (order ${payment.serviceOrderId})` : `order ${payment.serviceOrderId}`;
  if (payment.phoneMismatch) {
    return `The payment service reported ${transaction} as paid from ${redactPhone(payment.reportedPhoneNumber ?? '')}, not from ${redactPhone(payment.phoneNumber)} to which it was sent: the order is not treated as paid and is not refunded here. Ask the payment service's support which number paid ${amount} for ${transaction}, and settle with the payer through them.`;
  }
  if (payment.amountMismatch) {
    return `The payment service notified ${transaction} for another amount than the order's ${amount}: the order is not treated as paid and is not refunded here. Ask the payment service's support what was collected for ${transaction}, and settle with the payer through them.`;
  }
  if (payment.replacedAttemptCompleted) {
    const earlier = payment.replacedAttemptCompleted.serviceOrderId;
    return `The payment service notified an earlier attempt of this order (order ${earlier}) as completed after the payer had been let start another one (${transaction}, now ${payment.state}) because that attempt's approval page was refused: ${amount} was collected on order ${earlier}, and the payer may have paid twice. Ask the payment service's support to confirm order ${earlier}, then treat the order as paid, and settle any second payment with the payer.`;
  }
  if (finalPaymentStates.includes(payment.state)) return 'Nothing to do: the outcome is known.';
  if (payment.refusedNotification) {
    return `This server refused a genuine notification (status "${payment.refusedNotification.status}") because its clock is off: fix the clock (NTP), then ask the payment service's support to re-emit the notification of ${transaction}, ${amount}.`;
  }
  if (payment.authorizationRefused) {
    const why = authorizationUrlRefusalText[payment.authorizationRefused.reason];
    return `The payment service's notification for ${transaction}, ${amount}, arrived and was applied, but its approval page (authorizationUrl) was refused because ${why}: only https pages on a public host are sent to a payer. The payer was told at once that this way of paying is unavailable and could try another number, operator or a push; this attempt cannot be approved and is left to expire at the service. A standalone sandbox behind a proxy needs SANDBOX_PUBLIC_URL, the proxy's https address that forwards its /authorize/ and /logos/ paths (docs/deploy.md section 7); with the real service, send ${transaction} to its support.`;
  }
  if (payment.state === 'unknown' || !payment.transactionId) {
    return `The service's answer to this pay-in was lost, so it may or may not exist. Ask the payment service's support whether ${transaction}, ${amount}, exists and to re-emit its notification; do not ask the payer to pay again before they answer.`;
  }
  // The companion cannot see a notification that never arrived; the likeliest causes are named so
  // the first lost payment of a new setup is not waited on forever (issue 41: a staging proxy whose
  // certificate the sender did not trust).
  return `No notification has come for ${transaction}, ${amount}: it may have been sent and not delivered. Check that the sender reaches this server's webhook URL (MOMO_PUBLIC_URL followed by /webhook): https with a certificate it trusts (the sandbox behind a proxy with a private CA needs NODE_EXTRA_CA_CERTS, docs/deploy.md section 7), and no firewall or proxy rule refusing its POST. Then check its status in the payment service's dashboard, and ask its support to re-emit the notification of ${transaction} to this server's webhook URL.`;
}
