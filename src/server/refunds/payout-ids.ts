/**
 * The order id a refund's pay-out is sent under: `<orderId>-r<N>`. A pay-in attempt of the same
 * order is the order id or `<orderId>-a<N>` (payments/attempt-ids.ts), so the two never meet
 * within an order; across orders the store's registry decides (store.ts): it refuses an id that is
 * another order's attempt or pay-out, or another checkout's own order id, and the next N is tried.
 * A pay-out notification is matched through that registry only, never by reading the suffix back.
 */
import type { RefundRecord } from '../model/refund.js';

/** How many ids a refund tries before giving up (each one taken by another order). */
export const maxPayoutIdTries = 100;

/**
 * The id to try after `skipped` refusals: the first `<orderId>-r<N>`, N from one more than the
 * order's refunds (plus the refusals), that none of its own refunds holds.
 */
export function payoutOrderId(orderId: string, refunds: readonly RefundRecord[], skipped: number): string {
  const own = new Set(refunds.map((refund) => refund.payoutOrderId));
  for (let n = refunds.length + 1 + skipped; ; n++) {
    const id = `${orderId}-r${n}`;
    if (!own.has(id)) return id;
  }
}
