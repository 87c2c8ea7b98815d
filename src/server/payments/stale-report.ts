/** `onStale`: tells the merchant once about each payment that got stuck (see payments-list.ts). */
import { listPaymentSummaries, type PaymentSummary } from './payments-list.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';

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
    if (current?.payment && !current.payment.staleReportedAt) fresh.push(summary);
  }
  if (fresh.length === 0) return;
  await onStale(fresh);
  // Marked after the hook returned: a crash in between reports them again, never not at all.
  const at = now();
  for (const summary of fresh) {
    await updateCheckoutRecord(store, summary.orderId, (current) =>
      current.payment && !current.payment.staleReportedAt ? { ...current, payment: { ...current.payment, staleReportedAt: at } } : null,
    );
  }
}
