/**
 * The gauges read from the store at each scrape: what every process on one store sees alike (the
 * inbox, the deliveries still owed, open and stuck payments, each operator's completion rate). They
 * are computed the way the console computes them, from the same functions, so a number on a
 * dashboard is the number on the console's overview.
 *
 * The stuck payments held for support and stuck refunds come from the store's support index, every
 * one (the stale list puts them first); the operator rates from the store's counts. The other reads
 * are bounded pages: counts above {@link countedUpTo} read as that many, which an alert on "more
 * than zero" does not mind.
 */
import { finalPaymentStates } from '../../contract/companion.js';
import { deliveryHeads, type DeliverySink } from '../model/records.js';
import { listPaymentSummaries, openPaymentStates } from '../payments/payments-list.js';
import type { CheckoutStore } from '../stores/store.js';
import { readOperatorRates } from '../console/overview-reads.js';

export const countedUpTo = 1_000;

export interface StoreGauges {
  inbox: { pending: number; oldestSeconds: number };
  deliveries: Record<DeliverySink, { backlog: number; oldestSeconds: number }>;
  open: { count: number; oldestSeconds: number };
  stuck: { payment: number; held: number; refund: number };
  operators: Array<{ operator: string; lastHour: { finished: number; rate: number | null }; usual: { finished: number; rate: number | null } }>;
}

export async function readStoreGauges(store: CheckoutStore, now: number, staleAfterMinutes: number): Promise<StoreGauges> {
  const [inbox, deliveries, open, stuck, operators] = await Promise.all([
    store.pendingInbox(countedUpTo),
    deliveryBacklog(store, now),
    store.listPayments({ states: openPaymentStates, limit: countedUpTo }),
    listPaymentSummaries(store, { state: 'stale', olderThanMinutes: staleAfterMinutes, limit: countedUpTo }, now),
    // Counted from the store's index over the whole week, the last hour first in mind (overview-reads.ts).
    readOperatorRates(store, now),
  ]);
  const stuckKinds = { payment: 0, held: 0, refund: 0 };
  for (const summary of stuck) stuckKinds[summary.refund ? 'refund' : finalPaymentStates.includes(summary.state) ? 'held' : 'payment']++;
  return {
    inbox: { pending: inbox.length, oldestSeconds: secondsSince(now, Math.min(...inbox.map((entry) => entry.receivedAt))) },
    deliveries,
    // listPayments gives the oldest change first.
    open: { count: open.length, oldestSeconds: secondsSince(now, open[0]?.payment?.updatedAt) },
    stuck: stuckKinds,
    operators: operators.map(({ operator, lastHour, usual }) => ({ operator, lastHour, usual })),
  };
}

/**
 * Orders with a change still owed to each sink, and the oldest such change. The store indexes
 * records by their next attempt, not by age: the first {@link countedUpTo} records with a delivery
 * due at any time are read, which holds every one unless more than that many orders are owed.
 */
async function deliveryBacklog(store: CheckoutStore, now: number): Promise<StoreGauges['deliveries']> {
  const backlog: StoreGauges['deliveries'] = { webhook: { backlog: 0, oldestSeconds: 0 }, callback: { backlog: 0, oldestSeconds: 0 } };
  const orderIds = await store.dueDeliveries(Number.MAX_SAFE_INTEGER, countedUpTo);
  const records = await Promise.all(orderIds.map((orderId) => store.getByOrderId(orderId)));
  for (const record of records) {
    if (!record) continue;
    for (const head of deliveryHeads(record)) {
      const sink = backlog[head.sink];
      sink.backlog++;
      // The head is the oldest owed change of its order and sink (they go out in order).
      sink.oldestSeconds = Math.max(sink.oldestSeconds, secondsSince(now, head.requeuedAt ?? head.createdAt));
    }
  }
  return backlog;
}

function secondsSince(now: number, at: number | undefined): number {
  return at === undefined || !Number.isFinite(at) ? 0 : Math.max(0, (now - at) / 1000);
}
