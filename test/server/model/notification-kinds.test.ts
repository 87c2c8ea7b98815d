/**
 * The table of merchant notification kinds (src/server/model/notification-kinds.ts) and how a stored
 * delivery is read and written by it (model/records.ts): the kind is written on every delivery, read
 * back from it, and derived as 0.4.0 did on a delivery stored without one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { merchantEventTypes, merchantNotificationKinds, queuedKinds, storedAs } from '../../../src/server/model/notification-kinds.js';
import { deliveryHeads, nextDeliveryAt, notificationOf, queuedDeliveries, reportedBy, type DeliveryRecord } from '../../../src/server/model/records.js';
import { sampleDelivery, sampleRecord } from '../../../src/server/stores/store-contract.js';
import type { RefundUpdate } from '../../../src/server/index.js';

const payment = sampleDelivery('order-1', 2, 'webhook', 0).update!;
const refund = { orderId: 'order-1', idempotencyKey: 'order-1.l.refund.rf-1.1', refund: { refundId: 'rf-1', state: 'pending' }, previousState: 'sending' } as unknown as RefundUpdate;

describe('the table of kinds', () => {
  it('names the wire types in the order they were added, and queues every kind but the test ping', () => {
    assert.deepEqual(merchantEventTypes, ['payment.updated', 'refund.updated', 'test.ping']);
    assert.deepEqual(queuedKinds, ['payment', 'refund']);
    assert.equal(merchantNotificationKinds.payment.byDefault, true);
    assert.equal(merchantNotificationKinds.refund.byDefault, false);
  });

  it('keeps each queued payload under the field 0.4.0 stored it in', () => {
    assert.equal(storedAs('payment'), 'update');
    assert.equal(storedAs('refund'), 'refund');
  });
});

describe('a stored delivery', () => {
  it('is written with its kind, its payload under its field, one per sink, due at once', () => {
    const written = queuedDeliveries('refund', refund, ['callback', 'webhook'], 1_000);
    assert.deepEqual(written, [
      { id: refund.idempotencyKey, sink: 'callback', kind: 'refund', refund, createdAt: 1_000, attempts: 0, nextAttemptAt: 1_000 },
      { id: refund.idempotencyKey, sink: 'webhook', kind: 'refund', refund, createdAt: 1_000, attempts: 0, nextAttemptAt: 1_000 },
    ]);
    assert.deepEqual(queuedDeliveries('payment', payment, [], 1_000), []);
  });

  it('is read by its kind', () => {
    const [written] = queuedDeliveries('payment', payment, ['webhook'], 0);
    assert.deepEqual(notificationOf(written!), { kind: 'payment', payload: payment });
    assert.deepEqual(reportedBy(written!), { reportedState: 'pending' });
  });

  it('stored by 0.4.0 (no kind) is read as 0.4.0 read it: a refund when it has `refund`, else a payment', () => {
    const base = { id: 'x', sink: 'webhook', createdAt: 0, attempts: 0, nextAttemptAt: 0 } as const;
    assert.deepEqual(notificationOf({ ...base, refund }), { kind: 'refund', payload: refund });
    assert.deepEqual(reportedBy({ ...base, refund }), { reportedState: 'pending', refundId: 'rf-1' });
    assert.deepEqual(notificationOf({ ...base, update: payment }), { kind: 'payment', payload: payment });
    // A kind this version does not know (written by a later one) is read from the fields too.
    assert.deepEqual(notificationOf({ ...base, kind: 'payment-link' as never, refund }), { kind: 'refund', payload: refund });
  });
});

describe('when deliveries are due', () => {
  it('only the first pending delivery of each sink is a head, and the record is due at the earliest head', () => {
    const later = (delivery: DeliveryRecord, at: number) => ({ ...delivery, nextAttemptAt: at });
    const [toEndpoint] = queuedDeliveries('payment', payment, ['webhook'], 500);
    const [second] = queuedDeliveries('refund', refund, ['webhook'], 100);
    const [toCallback] = queuedDeliveries('refund', refund, ['callback'], 0);
    const record = sampleRecord({ deliveries: [toEndpoint!, second!, later(toCallback!, 300)] });
    assert.deepEqual(deliveryHeads(record).map((delivery) => [delivery.sink, delivery.kind]), [['webhook', 'payment'], ['callback', 'refund']]);
    assert.equal(nextDeliveryAt(record), 300);
    assert.equal(nextDeliveryAt(sampleRecord()), null);
  });
});
