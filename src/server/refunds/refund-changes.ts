/**
 * A refund's changes of state: monotone (§3: a final state never changes; arrival order is not
 * relied on), written through the store's compare-and-set, and queued for the merchant in the
 * same write (`onRefundUpdate`, `refund.updated`), as payment transitions are (payments/transitions.ts).
 */
import { queuedDeliveries, type CheckoutRecord, type DeliverySink } from '../model/records.js';
import { refundView, type RefundRecord, type RefundState, type RefundUpdate } from '../model/refund.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { checkoutRetentionMs } from '../payments/checkouts.js';

const rank: Record<RefundState, number> = { sending: 0, unknown: 1, pending: 2, completed: 3, failed: 3 };

export function isFinalRefund(state: RefundState): boolean {
  return rank[state] === 3;
}

/** True when `next` is a move forward from `current`. */
export function refundMovesForward(current: RefundState, next: RefundState): boolean {
  return !isFinalRefund(current) && rank[next] > rank[current];
}

export interface RefundChangeDeps {
  store: CheckoutStore;
  now: () => number;
  /** Where refund changes are reported. */
  sinks: readonly DeliverySink[];
  /** Called after a write that queued deliveries, so they go out at once. */
  onQueued?: ((orderId: string) => void) | undefined;
}

/**
 * Applies `change` to the refund `refundId` of the order. A change of state is queued for the
 * merchant in the same write; `change` returns null for no change.
 */
export async function changeRefund(
  deps: RefundChangeDeps,
  orderId: string,
  refundId: string,
  change: (refund: RefundRecord, checkout: CheckoutRecord) => RefundRecord | null,
): Promise<{ changed: boolean; refund: RefundRecord | undefined; checkout: CheckoutRecord | undefined }> {
  let queued = false;
  const result = await updateCheckoutRecord(deps.store, orderId, (checkout) => {
    queued = false;
    const refunds = checkout.refunds ?? [];
    const index = refunds.findIndex((refund) => refund.refundId === refundId);
    if (index < 0) return null;
    const before = refunds[index]!;
    const proposed = change(before, checkout);
    if (!proposed) return null;
    const at = deps.now();
    const reported = proposed.state !== before.state;
    const refund: RefundRecord = { ...proposed, updatedAt: at, version: reported ? before.version + 1 : before.version };
    const next: CheckoutRecord = {
      ...checkout,
      refunds: refunds.map((item, position) => (position === index ? refund : item)),
      retainUntil: Math.max(checkout.retainUntil, at + checkoutRetentionMs),
    };
    if (!reported || deps.sinks.length === 0) return next;
    queued = true;
    const update = refundUpdate(checkout, refund, before.state);
    const deliveries = queuedDeliveries('refund', update, deps.sinks, at);
    return { ...next, deliveries: [...(checkout.deliveries ?? []), ...deliveries] };
  });
  if (result.changed && queued) deps.onQueued?.(orderId);
  const refund = result.record?.refunds?.find((item) => item.refundId === refundId);
  return { changed: result.changed, refund, checkout: result.record };
}

function refundUpdate(checkout: CheckoutRecord, refund: RefundRecord, previousState: RefundState): RefundUpdate {
  return {
    orderId: checkout.orderId,
    idempotencyKey: refundIdempotencyKey(checkout, refund),
    refund: refundView(refund, checkout.currencyCode),
    previousState,
  };
}

/**
 * Unique for ever: the life id tells the lives of an order id apart, the refund id (unique within
 * the order) the refunds, the refund's version its changes; `refund` keeps them apart from the
 * payment's own keys (`<orderId>.<lifeId>.<version>`).
 */
function refundIdempotencyKey(checkout: CheckoutRecord, refund: RefundRecord): string {
  return `${checkout.orderId}.${checkout.lifeId ?? ''}.refund.${refund.refundId}.${refund.version}`;
}
