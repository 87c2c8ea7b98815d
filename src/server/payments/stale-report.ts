/** `onStale`: tells the merchant once about each payment, or refund, that got stuck (see payments-list.ts). */
import { listPaymentSummaries, type PaymentSummary } from './payments-list.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import type { CheckoutRecord } from '../model/records.js';

export async function reportStale(
  store: CheckoutStore,
  onStale: (payments: PaymentSummary[]) => void | Promise<void>,
  staleAfterMinutes: number,
  now: () => number,
): Promise<void> {
  const stale = await listPaymentSummaries(store, { state: 'stale', olderThanMinutes: staleAfterMinutes, limit: 500 }, now());
  const fresh: PaymentSummary[] = [];
  for (const summary of stale) {
    const current = await store.getByOrderId(summary.orderId);
    if (current && reportedAt(current, summary) === null) fresh.push(summary);
  }
  if (fresh.length === 0) return;
  await onStale(fresh);
  // Marked after the hook returned: a crash in between reports them again, never not at all.
  const at = now();
  for (const summary of fresh) {
    await updateCheckoutRecord(store, summary.orderId, (current) => (reportedAt(current, summary) === null ? markReported(current, summary, at) : null));
  }
}

/** When `onStale` was told about this line (the payment, or the refund it names), or null. */
function reportedAt(record: CheckoutRecord, summary: PaymentSummary): number | null {
  if (!record.payment) return 0;
  if (!summary.refund) return record.payment.staleReportedAt ?? null;
  const refund = record.refunds?.find((item) => item.refundId === summary.refund!.refundId);
  return refund ? refund.staleReportedAt ?? null : 0;
}

function markReported(record: CheckoutRecord, summary: PaymentSummary, at: number): CheckoutRecord {
  if (!summary.refund) return { ...record, payment: { ...record.payment!, staleReportedAt: at } };
  const refundId = summary.refund.refundId;
  return { ...record, refunds: record.refunds!.map((refund) => (refund.refundId === refundId ? { ...refund, staleReportedAt: at } : refund)) };
}
