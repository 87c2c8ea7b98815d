/**
 * Sending a payment's merchant notifications again, when the merchant asks (`POST
 * <publicUrl>/server/payments/{orderId}/redeliver`, `momo-checkout redeliver ORDER`): after fixing
 * a wrong secret or a failing handler, the merchant need not wait for the next scheduled retry (up
 * to 2 h) or for support.
 *
 * What goes again: every delivery not yet acknowledged (queued, or given up), due at once; when
 * every one was acknowledged, the last one; with `all`, every one still kept; always only of the
 * types the endpoint subscribes to now (`MOMO_MERCHANT_EVENTS`, issue 40 finding 8). Each keeps its
 * `webhook-id` and its body, so a handler that already recorded it skips it as a duplicate.
 */
import { notificationOf, reportedBy, storedNotification, type CheckoutRecord, type DeliveryRecord, type DeliverySink, type ReportedState, type SettledDelivery, type StoredNotification } from '../model/records.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import type { DeliveryWorker } from './delivery-worker.js';

export interface RedeliveryRequest {
  orderId: string;
  /** Every delivery still kept, acknowledged or not; default: the unacknowledged ones (or the last). */
  all?: boolean;
}

/** What was queued again, oldest first; null when the order has no checkout. */
export type Requeued = (Pick<DeliveryRecord, 'id' | 'sink'> & StoredNotification)[];

/**
 * Queues the order's deliveries to `sink` again, due now, in their original order (each sink hears
 * an order's transitions in order). Resolves with what was queued, [] when the order has none.
 */
export async function requeueDeliveries(
  store: CheckoutStore,
  sink: DeliverySink,
  request: RedeliveryRequest,
  now: number,
  subscribed: (delivery: DeliveryRecord) => boolean = () => true,
): Promise<Requeued | null> {
  let requeued: Requeued = [];
  const result = await updateCheckoutRecord(store, request.orderId, (checkout) => {
    const chosen = chooseAgain(checkout, sink, request.all === true, subscribed);
    requeued = chosen.map(({ id, sink: to, ...delivery }) => ({ id, sink: to, ...storedNotification(notificationOf(delivery)) }));
    if (chosen.length === 0) return null;
    const again = new Set(chosen);
    const pending = (checkout.deliveries ?? []).filter((delivery) => delivery.sink !== sink);
    const queued = chosen.map((delivery) => asQueued(delivery, now));
    return {
      ...checkout,
      deliveries: [...pending, ...queued],
      settledDeliveries: (checkout.settledDeliveries ?? []).filter((delivery) => !again.has(delivery)),
    };
  });
  return result.record === undefined ? null : requeued;
}

/** Only types the sink still takes (`subscribed`): a narrowed MOMO_MERCHANT_EVENTS holds for `all` too. */
function chooseAgain(checkout: CheckoutRecord, sink: DeliverySink, all: boolean, subscribed: (delivery: DeliveryRecord) => boolean): DeliveryRecord[] {
  const pending = (checkout.deliveries ?? []).filter((delivery) => delivery.sink === sink && subscribed(delivery));
  const settled = (checkout.settledDeliveries ?? []).filter((delivery) => delivery.sink === sink && subscribed(delivery));
  if (all) return byTransition([...settled, ...pending]);
  const undelivered = [...settled.filter((delivery) => !delivery.delivered), ...pending];
  if (undelivered.length > 0) return byTransition(undelivered);
  return settled.slice(-1);
}

/** Transition order: the order they were made in (the version ends the idempotency key). */
function byTransition(deliveries: DeliveryRecord[]): DeliveryRecord[] {
  const version = (delivery: DeliveryRecord) => delivery.update?.payment.version ?? 0;
  return [...deliveries].sort((a, b) => a.createdAt - b.createdAt || version(a) - version(b));
}

function asQueued(delivery: DeliveryRecord | SettledDelivery, now: number): DeliveryRecord {
  const { id, sink, createdAt, attempts } = delivery;
  return { id, sink, ...storedNotification(notificationOf(delivery)), createdAt, attempts, nextAttemptAt: now, requeuedAt: now };
}

/** How one delivery sent again went. */
export interface RedeliveryOutcome {
  /** Its `webhook-id` (the update's idempotency key), unchanged. */
  webhookId: string;
  /** The state this delivery reports (the transition's, not the payment's current one; with `refundId`, the refund's). */
  reportedState: ReportedState;
  /** Set when this delivery is a `refund.updated`. */
  refundId?: string;
  delivered: boolean;
  /** HTTP status of the endpoint's last answer, when there was one. */
  status?: number;
  error?: string;
  /** When it is tried next (not delivered yet). */
  nextAttemptAt?: number;
}

/** How a requested redelivery went, read from the record once the worker's round is done. */
export function redeliveryOutcomes(record: CheckoutRecord, requeued: Requeued): RedeliveryOutcome[] {
  return requeued.map((delivery) => {
    const { id, sink } = delivery;
    const settled = (record.settledDeliveries ?? []).findLast((delivery) => delivery.id === id && delivery.sink === sink);
    const pending = (record.deliveries ?? []).find((delivery) => delivery.id === id && delivery.sink === sink);
    const attempt = (record.deliveryLog ?? []).findLast((entry) => entry.deliveryId === id && entry.sink === sink);
    return {
      webhookId: id,
      ...reportedBy(delivery),
      delivered: settled?.delivered === true,
      ...(attempt?.status !== undefined ? { status: attempt.status } : {}),
      ...(attempt && !attempt.ok && attempt.error ? { error: attempt.error } : {}),
      ...(pending ? { nextAttemptAt: pending.nextAttemptAt } : {}),
    };
  });
}

/** A redelivery: queued again, sent at once, and how each went; null when the order has no checkout. */
export type Redeliver = (request: RedeliveryRequest) => Promise<RedeliveryOutcome[] | null>;

export function createRedelivery(deps: {
  store: CheckoutStore;
  worker: Pick<DeliveryWorker, 'deliverNow'>;
  sink: DeliverySink;
  now: () => number;
  /** Whether the sink still takes a delivery's type (delivery-sinks.ts `stillSubscribed`). */
  subscribed?: (delivery: DeliveryRecord) => boolean;
}): Redeliver {
  return async (request) => {
    const requeued = await requeueDeliveries(deps.store, deps.sink, request, deps.now(), deps.subscribed);
    if (requeued === null) return null;
    if (requeued.length > 0) await deps.worker.deliverNow(request.orderId);
    const record = await deps.store.getByOrderId(request.orderId);
    return record ? redeliveryOutcomes(record, requeued) : null;
  };
}
