/**
 * The numbers behind the console's pictures, from the store's records: payments per hour over the
 * last 24 hours by outcome, and each operator's completion rate over the last hour and day against
 * its usual one. Mobile money operators have outages; a shop should see at a glance that one
 * operator's payments stopped completing this afternoon.
 *
 * Pure functions of records and a time, so the rules are tested without a store or a clock.
 */
import type { ConsoleHour, ConsoleOperatorRate, ConsoleRate } from '../../contract/console.js';
import type { CheckoutRecord } from '../model/records.js';

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

/** Payments counted in the hour of their last change: a completed one in the hour it completed. */
export function paymentsPerHour(records: readonly CheckoutRecord[], now: number): ConsoleHour[] {
  const firstHour = Math.floor(now / hourMs) * hourMs - (chartHours - 1) * hourMs;
  const hours: ConsoleHour[] = Array.from({ length: chartHours }, (_, index) => ({
    start: new Date(firstHour + index * hourMs).toISOString(),
    completed: 0,
    failed: 0,
    open: 0,
  }));
  for (const record of records) {
    const payment = record.payment;
    if (!payment) continue;
    const index = Math.floor((payment.updatedAt - firstHour) / hourMs);
    const hour = hours[index];
    if (!hour) continue;
    if (payment.state === 'completed') hour.completed++;
    else if (payment.state === 'failed') hour.failed++;
    else hour.open++;
  }
  return hours;
}

/** Each operator's rates; the records are the finished payments of the last week. */
export function operatorRates(finished: readonly CheckoutRecord[], now: number): ConsoleOperatorRate[] {
  const byOperator = new Map<string, { lastHour: ConsoleRate; lastDay: ConsoleRate; usual: ConsoleRate }>();
  for (const record of finished) {
    const payment = record.payment;
    if (!payment || (payment.state !== 'completed' && payment.state !== 'failed')) continue;
    const name = payment.operator?.name ?? payment.operator?.code ?? '?';
    let rates = byOperator.get(name);
    if (!rates) byOperator.set(name, (rates = { lastHour: emptyRate(), lastDay: emptyRate(), usual: emptyRate() }));
    const age = now - payment.updatedAt;
    const completed = payment.state === 'completed';
    if (age < hourMs) count(rates.lastHour, completed);
    else if (age < usualWindowMs) count(rates.usual, completed);
    if (age < chartHours * hourMs) count(rates.lastDay, completed);
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

function count(rate: ConsoleRate, completed: boolean): void {
  rate.finished++;
  if (completed) rate.completed++;
  rate.rate = rate.completed / rate.finished;
}
