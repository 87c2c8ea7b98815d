/**
 * What puts a record in a store's support views (store.ts `listNeedingSupport`, `countPayments`):
 * the rule is here once, and every engine writes its index from it in the same write as the record,
 * so the resumer, the stale list, the stuck gauge, the operator rates and the console's overview
 * find every record it names, newest first, whatever the number of other payments in the store.
 */
import { finalPaymentStates, type PaymentState } from '../../contract/companion.js';
import { heldForSupport } from './payment-view.js';
import type { CheckoutRecord, PaymentRecord } from './records.js';
import type { RefundState } from './refund.js';

/** A refund in one of these has no outcome yet: it may need to be posted again, or asked about. */
export const unsettledRefundStates: ReadonlySet<RefundState> = new Set(['sending', 'unknown', 'pending']);

/**
 * When the record started needing a person, or null when it does not: a payment held for a
 * differing amount or number, one whose replaced attempt completed after all, an open payment with a genuine notification refused for its clock, or
 * a refund with no outcome (which the resumer posts again, or the stale list shows once it is old).
 * The time is the payment's last change: the views list the newest first.
 */
export function supportSince(record: CheckoutRecord): number | null {
  const payment = record.payment;
  if (!payment) return null;
  const open = !finalPaymentStates.includes(payment.state);
  const needs =
    heldForSupport(payment) ||
    Boolean(payment.replacedAttemptCompleted) ||
    (open && Boolean(payment.refusedNotification)) ||
    (record.refunds ?? []).some((refund) => unsettledRefundStates.has(refund.state));
  return needs ? payment.updatedAt : null;
}

/** The name a payment's operator is counted under (the console's operator rates). */
export function operatorName(payment: Pick<PaymentRecord, 'operator'>): string {
  return payment.operator?.name ?? payment.operator?.code ?? '?';
}

/** How many payments of one operator are in one state (store.ts `countPayments`). */
export interface PaymentCount {
  operator: string;
  state: PaymentState;
  count: number;
}

/** The counts of `records`' payments whose last change is in [from, to): the memory store's and a fallback's. */
export function countPaymentsOf(records: Iterable<CheckoutRecord>, from: number, to: number): PaymentCount[] {
  const counts = new Map<string, PaymentCount>();
  for (const record of records) {
    const payment = record.payment;
    if (!payment || payment.updatedAt < from || payment.updatedAt >= to) continue;
    const operator = operatorName(payment);
    const key = `${payment.state}\n${operator}`;
    const found = counts.get(key);
    if (found) found.count++;
    else counts.set(key, { operator, state: payment.state, count: 1 });
  }
  return [...counts.values()];
}
