/**
 * The console's reads of payments, through the store's interface alone (the same for the memory,
 * file and Redis stores): a page of the list comes from the store's index by state and time of the
 * last change (`listPayments`), an order id from its own index (`getByOrderId`, or the registry of
 * service order ids for an attempt's id), never from reading every record.
 */
import type { ConsolePaymentDetail, ConsolePaymentFilter, ConsolePaymentRow, ConsoleTimelineItem, ConsoleUnpaidCheckout } from '../../contract/console.js';
import { redactPhone } from '../../contract/phone.js';
import type { CheckoutRecord } from '../model/records.js';
import { openPaymentStates } from '../payments/payments-list.js';
import { refundableAmount } from '../refunds/refund-rules.js';
import type { CheckoutStore, PaymentQuery } from '../stores/store.js';

/** A page of the console's list: enough to scan by eye, small enough to read from the index at once. */
export const consolePageSize = 100;

export async function findPayments(store: CheckoutStore, filter: ConsolePaymentFilter, now: number): Promise<ConsolePaymentRow[]> {
  if (filter.orderId) {
    const record = await findOrder(store, filter.orderId);
    return record?.payment ? [paymentRow(record, now)] : [];
  }
  const query: PaymentQuery = { newestFirst: true, limit: consolePageSize };
  if (filter.state === 'open') query.states = openPaymentStates;
  else if (filter.state && filter.state !== 'stale') query.states = [filter.state];
  if (filter.withinHours !== undefined) query.updatedAfter = now - filter.withinHours * 3_600_000;
  return (await store.listPayments(query)).map((record) => paymentRow(record, now));
}

/** A search by order id that finds the checkout but no payment: when it was created and until when it can be paid. */
export async function findUnpaidCheckout(store: CheckoutStore, filter: ConsolePaymentFilter): Promise<ConsoleUnpaidCheckout | undefined> {
  if (!filter.orderId) return undefined;
  const record = await findOrder(store, filter.orderId);
  if (!record || record.payment) return undefined;
  return { orderId: record.orderId, amount: record.amount, currencyCode: record.currencyCode, createdAt: iso(record.createdAt), expiresAt: iso(record.expiresAt) };
}

/** The order by the merchant's id, or by the id the service knows one of its attempts by. */
export async function findOrder(store: CheckoutStore, orderId: string): Promise<CheckoutRecord | undefined> {
  return (await store.getByOrderId(orderId)) ?? (await store.getByServiceOrderId(orderId));
}

export function paymentRow(record: CheckoutRecord, now: number): ConsolePaymentRow {
  const payment = record.payment!;
  return {
    orderId: record.orderId,
    amount: record.amount,
    currencyCode: record.currencyCode,
    phoneNumberMasked: redactPhone(payment.phoneNumber),
    operator: payment.operator?.name ?? null,
    state: payment.state,
    updatedAt: iso(payment.updatedAt),
    ageMinutes: Math.max(0, Math.floor((now - payment.updatedAt) / 60_000)),
  };
}

export function paymentDetail(record: CheckoutRecord, now: number): ConsolePaymentDetail {
  const payment = record.payment!;
  return {
    ...paymentRow(record, now),
    serviceOrderId: payment.serviceOrderId,
    transactionId: payment.transactionId,
    timeline: timelineOf(record),
    undelivered: (record.deliveries ?? []).length + (record.settledDeliveries ?? []).filter((delivery) => !delivery.delivered).length,
    refundable: payment.state === 'completed' && !payment.amountMismatch ? refundableAmount(record) : '0',
  };
}

/** States, notifications, delivery attempts and refunds, in the order they happened. */
function timelineOf(record: CheckoutRecord): ConsoleTimelineItem[] {
  const items: Array<{ at: number; item: ConsoleTimelineItem }> = [];
  for (const entry of record.timeline ?? []) {
    items.push({
      at: entry.at,
      item:
        entry.kind === 'state'
          ? { kind: 'state', at: iso(entry.at), state: entry.state, attempt: entry.attempt }
          : { kind: 'notification', at: iso(entry.at), status: entry.status, serviceOrderId: entry.serviceOrderId },
    });
  }
  for (const attempt of record.deliveryLog ?? []) {
    items.push({
      at: attempt.at,
      item: {
        kind: 'delivery',
        at: iso(attempt.at),
        deliveryId: attempt.deliveryId,
        sink: attempt.sink,
        ok: attempt.ok,
        status: attempt.status ?? null,
        durationMs: attempt.durationMs ?? null,
        error: attempt.error ?? null,
      },
    });
  }
  for (const refund of record.refunds ?? []) {
    items.push({ at: refund.createdAt, item: { kind: 'refund', at: iso(refund.createdAt), refundId: refund.refundId, amount: refund.amount, state: refund.state } });
  }
  // Stable: what was written in one instant keeps the order it was written in.
  return items.sort((a, b) => a.at - b.at).map(({ item }) => item);
}

const iso = (at: number) => new Date(at).toISOString();
