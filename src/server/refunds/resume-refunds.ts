/**
 * A refund left `sending` (its process stopped between writing it and writing its pay-out's
 * answer) is posted again under its own pay-out order id by the companion's maintenance, once its
 * lock has lapsed. The re-post rule (service-client/repost-rule.ts) makes that safe: the refund
 * existed, so a 409 means its pay-out exists and is ours; it never pays twice. Without this, such
 * a refund would wait for ever, and the shop would never get its `refund.updated`.
 */
import { recordsNeedingSupport } from '../stores/support-views.js';
import { refundLockTtlMs, refundPayment, type RefundDeps } from './refund-flow.js';
import { RefundRefusal } from './refund-refusal.js';

/** Scans at start, then again while some could not be resumed yet, and at least every `rescanMs`. */
export function createRefundResumer(deps: RefundDeps, rescanMs = 5 * 60_000): () => Promise<void> {
  let lastScan: number | null = null;
  let leftOver = false;
  return async () => {
    if (!deps.enabled) return;
    const at = deps.now();
    if (lastScan !== null && !leftOver && at - lastScan < rescanMs) return;
    lastScan = at;
    leftOver = false;
    // Every record with a refund left without an outcome is in the store's support index, however
    // many finished payments surround it (a capped read of the oldest hid the newest).
    const records = await recordsNeedingSupport(deps.store);
    for (const record of records) {
      for (const refund of record.refunds ?? []) {
        if (refund.state !== 'sending') continue;
        if (refund.updatedAt > at - refundLockTtlMs) {
          leftOver = true;
          continue;
        }
        try {
          const after = await refundPayment(deps, record.orderId, { refundId: refund.refundId, amount: refund.amount });
          deps.log.warn('refund left sending by a stop was posted again under its pay-out order id', { orderId: record.orderId, refundId: refund.refundId, state: after.state });
        } catch (error) {
          // Another process (or a call) holds it now: it finishes it, or the next round does.
          if (!(error instanceof RefundRefusal && error.code === 'REFUND_IN_PROGRESS')) throw error;
          leftOver = true;
        }
      }
    }
  };
}
