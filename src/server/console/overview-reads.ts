/**
 * The console's pictures and the operator-rate gauges, read from the store's counts
 * (store.ts `countPayments`): the last hour, day and week of every operator are counted, never read
 * record by record under a cap (which, oldest first, cut the newest hour at a busy shop's volume
 * and blinded the operator-rate alert).
 */
import type { ConsoleHour, ConsoleOperatorRate } from '../../contract/console.js';
import type { CheckoutStore } from '../stores/store.js';
import { countPaymentsBetween } from '../stores/support-views.js';
import { chartHours, firstChartHour, hoursFromCounts, operatorRatesFromCounts, rateWindows } from './overview-charts.js';

const hourMs = 3_600_000;

/** Each operator's completion rates over the last hour, day and its usual week. */
export async function readOperatorRates(store: CheckoutStore, now: number): Promise<ConsoleOperatorRate[]> {
  const windows = rateWindows(now);
  const [lastHour, lastDay, usual] = await Promise.all([
    countPaymentsBetween(store, ...windows.lastHour),
    countPaymentsBetween(store, ...windows.lastDay),
    countPaymentsBetween(store, ...windows.usual),
  ]);
  return operatorRatesFromCounts({ lastHour, lastDay, usual });
}

/** The last 24 hours' payments per hour, by outcome. */
export async function readPaymentsPerHour(store: CheckoutStore, now: number): Promise<ConsoleHour[]> {
  const first = firstChartHour(now);
  const counts = await Promise.all(Array.from({ length: chartHours }, (_, index) => countPaymentsBetween(store, first + index * hourMs, first + (index + 1) * hourMs)));
  return hoursFromCounts(counts, now);
}
