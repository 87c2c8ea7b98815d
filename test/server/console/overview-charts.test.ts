/**
 * The pictures' numbers: a payment counted in the hour of its last change by outcome, an operator's
 * rates over the last hour, day and week, and the mark on one whose last hour fell well below its
 * usual rate only when there are enough payments on both sides to tell.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentState } from '../../../src/contract/companion.js';
import { operatorRates, paymentsPerHour } from '../../../src/server/console/overview-charts.js';
import type { CheckoutRecord } from '../../../src/server/model/records.js';

const hour = 3_600_000;
const now = Date.UTC(2026, 10, 24, 15, 30);

function record(state: PaymentState, ageMs: number, operator = 'MTN MoMo'): CheckoutRecord {
  return {
    orderId: `o-${Math.random()}`,
    payment: { state, updatedAt: now - ageMs, operator: { code: operator, name: operator, logoUrl: '', instructions: null } },
  } as unknown as CheckoutRecord;
}

const many = (count: number, state: PaymentState, ageMs: number, operator?: string) => Array.from({ length: count }, () => record(state, ageMs, operator));

describe('payments per hour', () => {
  it('counts each payment in the hour of its last change, by outcome, over 24 hours', () => {
    const hours = paymentsPerHour([record('completed', 0), record('failed', 10 * 60_000), record('pending', 2 * hour), record('completed', 25 * hour)], now);
    assert.equal(hours.length, 24);
    assert.equal(hours.at(-1)!.start, '2026-11-24T15:00:00.000Z');
    assert.deepEqual(hours.at(-1), { start: '2026-11-24T15:00:00.000Z', completed: 1, failed: 1, open: 0 });
    assert.deepEqual(hours.at(-3), { start: '2026-11-24T13:00:00.000Z', completed: 0, failed: 0, open: 1 });
    assert.equal(hours.reduce((sum, item) => sum + item.completed + item.failed + item.open, 0), 3, 'older than 24 hours is not drawn');
  });
});

describe('completion rate per operator', () => {
  it('marks an operator whose last hour fell well below its usual rate', () => {
    const records = [
      ...many(18, 'completed', 3 * hour, 'MTN MoMo'),
      ...many(2, 'failed', 3 * hour, 'MTN MoMo'),
      ...many(1, 'completed', 10 * 60_000, 'MTN MoMo'),
      ...many(5, 'failed', 10 * 60_000, 'MTN MoMo'),
      ...many(20, 'completed', 3 * hour, 'Moov Money'),
      ...many(5, 'completed', 10 * 60_000, 'Moov Money'),
    ];
    const [moov, mtn] = operatorRates(records, now);
    assert.equal(mtn!.operator, 'MTN MoMo');
    assert.deepEqual(mtn!.lastHour, { completed: 1, finished: 6, rate: 1 / 6 });
    assert.deepEqual(mtn!.usual, { completed: 18, finished: 20, rate: 0.9 });
    assert.deepEqual(mtn!.lastDay, { completed: 19, finished: 26, rate: 19 / 26 });
    assert.equal(mtn!.belowUsual, true);
    assert.equal(moov!.belowUsual, false);
  });

  it('does not mark an operator on too few payments', () => {
    const records = [...many(30, 'completed', 3 * hour), ...many(2, 'failed', 10 * 60_000)];
    assert.equal(operatorRates(records, now)[0]!.belowUsual, false, 'two failures in the last hour are not an outage');
    assert.equal(operatorRates([...many(4, 'completed', 3 * hour), ...many(6, 'failed', 10 * 60_000)], now)[0]!.belowUsual, false, 'no usual rate to compare with');
  });
});
