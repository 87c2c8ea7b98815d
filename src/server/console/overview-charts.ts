/**
 * The numbers behind the console's pictures, from the store's records: payments per hour over the
 * last 24 hours by outcome, and each operator's completion rate over the last hour and day against
 * its usual one. Mobile money operators have outages; a shop should see at a glance that one
 * operator's payments stopped completing this afternoon.
 *
 * Pure functions of counts (or records) and a time, so the rules are tested without a store or a
 * clock; overview-reads.ts asks the store for the counts.
 */
import type { ConsoleHour, ConsoleOperatorRate, ConsoleRate } from '../../contract/console.js';
import type { CheckoutRecord } from '../model/records.js';
import { countPaymentsOf, type PaymentCount } from '../model/support.js';

const hourMs = 3_600_000;
export const chartHours = 24;
/** How far back an operator's usual rate is read: the store keeps a payment a week after its last change. */
export const usualWindowMs = 7 * 24 * hourMs;

/**
 * An operator is marked when its last hour's rate is this far below its usual one, with enough
 * payments on both sides that chance does not explain it (two failures in three tries is not an outage).
 */
export const belowUsualBy = 0.25;
export const minFinishedLastHour = 5;
export const minFinishedUsual = 20;

/** The first hour of the chart: the one `chartHours - 1` hours before the current one. */
export const firstChartHour = (now: number) => Math.floor(now / hourMs) * hourMs - (chartHours - 1) * hourMs;

/** Payments counted in the hour of their last change: a completed one in the hour it completed. */
export function paymentsPerHour(records: readonly CheckoutRecord[], now: number): ConsoleHour[] {
  const first = firstChartHour(now);
  return hoursFromCounts(Array.from({ length: chartHours }, (_, index) => countPaymentsOf(records, first + index * hourMs, first + (index + 1) * hourMs)), now);
}

/** The chart from each hour's counts (`counts[i]` is hour i's, the oldest first). */
export function hoursFromCounts(counts: ReadonlyArray<readonly PaymentCount[]>, now: number): ConsoleHour[] {
  const first = firstChartHour(now);
  return Array.from({ length: chartHours }, (_, index) => {
    const hour: ConsoleHour = { start: new Date(first + index * hourMs).toISOString(), completed: 0, failed: 0, open: 0 };
    for (const { state, count } of counts[index] ?? []) {
      if (state === 'completed') hour.completed += count;
      else if (state === 'failed') hour.failed += count;
      else hour.open += count;
    }
    return hour;
  });
}

/** The windows an operator's rates are counted over, as [from, to) for `now`. */
export function rateWindows(now: number): Record<'lastHour' | 'lastDay' | 'usual', [number, number]> {
  return { lastHour: [now - hourMs + 1, now + 1], lastDay: [now - chartHours * hourMs + 1, now + 1], usual: [now - usualWindowMs + 1, now - hourMs + 1] };
}

/** Each operator's rates; the records are the finished payments of the last week. */
export function operatorRates(finished: readonly CheckoutRecord[], now: number): ConsoleOperatorRate[] {
  const windows = rateWindows(now);
  return operatorRatesFromCounts({
    lastHour: countPaymentsOf(finished, ...windows.lastHour),
    lastDay: countPaymentsOf(finished, ...windows.lastDay),
    usual: countPaymentsOf(finished, ...windows.usual),
  });
}

/** Each operator's rates from the counts of each window ({@link rateWindows}). */
export function operatorRatesFromCounts(counts: Record<'lastHour' | 'lastDay' | 'usual', readonly PaymentCount[]>): ConsoleOperatorRate[] {
  const byOperator = new Map<string, { lastHour: ConsoleRate; lastDay: ConsoleRate; usual: ConsoleRate }>();
  for (const window of ['lastHour', 'lastDay', 'usual'] as const) {
    for (const { operator, state, count } of counts[window]) {
      if (state !== 'completed' && state !== 'failed') continue;
      let rates = byOperator.get(operator);
      if (!rates) byOperator.set(operator, (rates = { lastHour: emptyRate(), lastDay: emptyRate(), usual: emptyRate() }));
      add(rates[window], state === 'completed', count);
    }
  }
  return [...byOperator.entries()]
    .map(([operator, rates]) => ({ operator, ...rates, belowUsual: isBelowUsual(rates.lastHour, rates.usual) }))
    .sort((a, b) => a.operator.localeCompare(b.operator));
}

function isBelowUsual(lastHour: ConsoleRate, usual: ConsoleRate): boolean {
  if (lastHour.rate === null || usual.rate === null) return false;
  if (lastHour.finished < minFinishedLastHour || usual.finished < minFinishedUsual) return false;
  return lastHour.rate <= usual.rate - belowUsualBy;
}

const emptyRate = (): ConsoleRate => ({ completed: 0, finished: 0, rate: null });

function add(rate: ConsoleRate, completed: boolean, count: number): void {
  rate.finished += count;
  if (completed) rate.completed += count;
  rate.rate = rate.finished > 0 ? rate.completed / rate.finished : null;
}
