/**
 * A verified notification of a refund's pay-out (§6), found through the store's registry of
 * service order ids (never by reading the id): applied with the pay-in's rules, monotone whatever
 * the arrival order, idempotent. A differing amount is logged and flagged for support (the money
 * has moved either way, so the status still stands).
 */
import { sameAmount } from '../../contract/money.js';
import type { WebhookNotification } from '../../contract/upstream/index.js';
import type { Logger } from '../log.js';
import type { CheckoutRecord } from '../model/records.js';
import type { RefundState } from '../model/refund.js';
import { changeRefund, refundMovesForward, type RefundChangeDeps } from './refund-changes.js';

/** The refund of `checkout` whose pay-out was sent under `serviceOrderId`, if any. */
export function refundOfPayout(checkout: CheckoutRecord, serviceOrderId: string) {
  return checkout.refunds?.find((refund) => refund.payoutOrderId === serviceOrderId);
}

export async function applyPayoutNotification(
  deps: RefundChangeDeps & { log: Logger },
  checkout: CheckoutRecord,
  notification: WebhookNotification,
): Promise<{ changed: boolean; state: RefundState | undefined }> {
  const refund = refundOfPayout(checkout, notification.orderId);
  if (!refund) return { changed: false, state: undefined };
  if (refund.payoutIdConflict) {
    deps.log.error('pay-out notification for an order id another client created: not applied; needs support', { orderId: checkout.orderId, refundId: refund.refundId, status: notification.status });
    return { changed: false, state: refund.state };
  }
  const amountMatches = sameAmount(notification.rawAmount, refund.amount);
  if (!amountMatches) {
    deps.log.error('pay-out notification amount differs from the refund: flagged for support', { orderId: checkout.orderId, refundId: refund.refundId, expected: refund.amount, received: notification.rawAmount });
  }
  const target: RefundState | null = notification.status === 'completed' ? 'completed' : notification.status === 'failed' ? 'failed' : 'pending';
  if (notification.status !== 'completed' && notification.status !== 'failed' && notification.status !== 'pending') {
    deps.log.warn('pay-out notification with an unknown status treated as non-final', { orderId: checkout.orderId, refundId: refund.refundId, status: notification.status });
  }
  const { changed, refund: after } = await changeRefund(deps, checkout.orderId, refund.refundId, (current) => {
    if (current.payoutOrderId !== notification.orderId) return null;
    const flagged = !amountMatches && !current.amountMismatch;
    const next = { ...current, lastServiceStatus: notification.status, amountMismatch: current.amountMismatch || !amountMatches };
    if (refundMovesForward(current.state, target)) {
      return {
        ...next,
        state: target,
        ...(target === 'failed' ? { failureCategory: notification.failureCategory ?? current.failureCategory, failureReason: notification.failureReason ?? current.failureReason } : {}),
      };
    }
    return flagged || current.lastServiceStatus !== notification.status ? next : null;
  });
  return { changed, state: after?.state };
}

