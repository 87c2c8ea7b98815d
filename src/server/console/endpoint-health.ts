/**
 * The merchant endpoint's last deliveries, newest first: read from the delivery logs of the payments
 * changed most recently (each record keeps its own last attempts), so the store is asked for one
 * page of its index, not for every record.
 */
import type { ConsoleEndpointDelivery } from '../../contract/console.js';
import type { CheckoutStore } from '../stores/store.js';
import { endpointSink } from '../model/records.js';

/** How many recent payments are read for their attempts, and how many attempts are shown. */
const recentPayments = 50;
const shownDeliveries = 20;

export async function lastEndpointDeliveries(store: CheckoutStore): Promise<ConsoleEndpointDelivery[]> {
  const records = await store.listPayments({ newestFirst: true, limit: recentPayments });
  const deliveries: Array<ConsoleEndpointDelivery & { time: number }> = [];
  for (const record of records) {
    for (const attempt of record.deliveryLog ?? []) {
      if (attempt.sink !== endpointSink) continue;
      deliveries.push({
        orderId: record.orderId,
        time: attempt.at,
        at: new Date(attempt.at).toISOString(),
        ok: attempt.ok,
        status: attempt.status ?? null,
        durationMs: attempt.durationMs ?? null,
        error: attempt.error ?? null,
      });
    }
  }
  return deliveries
    .sort((a, b) => b.time - a.time)
    .slice(0, shownDeliveries)
    .map(({ time: _time, ...delivery }) => delivery);
}
