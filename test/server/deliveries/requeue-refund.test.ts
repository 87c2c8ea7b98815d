/**
 * Sending a refund's notification again keeps its body: a `refund.updated` delivery requeued by a
 * redelivery (the console's re-send, the server API's redeliver) still carries its refund, so it does
 * not go out as an empty `payment.updated`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requeueDeliveries } from '../../../src/server/deliveries/redeliver.js';
import type { SettledDelivery } from '../../../src/server/model/records.js';
import type { RefundUpdate } from '../../../src/server/model/refund.js';
import { createMemoryStore } from '../../../src/server/stores/memory-store.js';
import { sampleRecord, samplePayment } from '../../../src/server/stores/store-contract.js';

describe('requeueing a refund notification', () => {
  it('keeps the refund it reports', async () => {
    const store = createMemoryStore();
    const refund = { orderId: 'o-refund', idempotencyKey: 'o-refund.r1.1', refund: { refundId: 'r1', state: 'completed' }, previousState: 'pending' } as unknown as RefundUpdate;
    const settled: SettledDelivery = { id: refund.idempotencyKey, sink: 'webhook', refund, createdAt: 1, attempts: 3, nextAttemptAt: 1, delivered: false, settledAt: 2 };
    await store.createIfAbsent(sampleRecord({ orderId: 'o-refund', payment: samplePayment('o-refund', { state: 'completed' }), settledDeliveries: [settled] }));
    const requeued = await requeueDeliveries(store, 'webhook', { orderId: 'o-refund' }, 10);
    assert.deepEqual(requeued?.map((delivery) => delivery.id), ['o-refund.r1.1']);
    const [queued] = (await store.getByOrderId('o-refund'))!.deliveries;
    assert.deepEqual(queued?.refund, refund);
    assert.equal(queued?.update, undefined);
    assert.equal(queued?.nextAttemptAt, 10);
  });
});
