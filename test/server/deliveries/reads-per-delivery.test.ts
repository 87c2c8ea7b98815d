/**
 * A delivery round after attempts starts from the record the attempts wrote, not from another read
 * of the store (issue 43: that read found nothing due after almost every notification): one read
 * per delivered notification, and none between the attempts' writes and the lease's release.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { createDeliveryWorker, type DeliverFunction } from '../../../src/server/deliveries/delivery-worker.js';
import { silentLogger } from '../../../src/server/log.js';
import { sampleDelivery, sampleRecord } from '../../../src/server/stores/store-contract.js';
import type { DeliveryRecord } from '../../../src/server/model/records.js';

/** A memory store whose reads, writes and lease calls are written down, in order. */
function countingStore(): { store: CheckoutStore; calls: string[] } {
  const inner = createMemoryStore();
  const calls: string[] = [];
  const store: CheckoutStore = {
    ...inner,
    getByOrderId: (orderId) => (calls.push('read'), inner.getByOrderId(orderId)),
    compareAndSet: (orderId, revision, next) => (calls.push('write'), inner.compareAndSet(orderId, revision, next)),
    releaseLock: (key, owner) => (calls.push('release'), inner.releaseLock(key, owner)),
  };
  return { store, calls };
}

async function deliver(deliveries: DeliveryRecord[], sinks: Partial<Record<DeliveryRecord['sink'], DeliverFunction>>) {
  const { store, calls } = countingStore();
  const record = sampleRecord();
  await store.createIfAbsent({ ...record, deliveries: deliveries.map((delivery) => ({ ...delivery, createdAt: Date.now(), update: { ...delivery.update!, orderId: record.orderId } })) });
  const worker = createDeliveryWorker({ store, log: silentLogger, now: Date.now, pollMs: 60_000, retryDelaysMs: [60_000], sinks });
  await worker.deliverNow(record.orderId);
  await worker.stop(0);
  const workerCalls = [...calls];
  return { calls: workerCalls, stored: (await store.getByOrderId(record.orderId))! };
}

describe('delivery worker: reads per delivered notification', () => {
  it('reads the record once for one delivery, and nothing after writing its outcome', async () => {
    const sent: string[] = [];
    const { calls, stored } = await deliver([sampleDelivery('o', 1, 'callback', 0)], { callback: async (delivery) => (sent.push(delivery.id), { ok: true }) });
    assert.equal(sent.length, 1);
    assert.equal(stored.deliveries.length, 0, 'delivered and settled');
    assert.deepEqual(calls, ['read', 'write', 'release']);
  });

  it('goes on from the written record to the delivery queued behind: one read for two deliveries', async () => {
    const sent: string[] = [];
    const { calls, stored } = await deliver([sampleDelivery('o', 1, 'callback', 0), sampleDelivery('o', 2, 'callback', 0)], {
      callback: async (delivery) => (sent.push(delivery.id), { ok: true }),
    });
    assert.deepEqual(sent, ['o.1', 'o.2'], 'in order');
    assert.equal(stored.deliveries.length, 0);
    assert.deepEqual(calls, ['read', 'write', 'write', 'release']);
  });

  it('stops at a failed attempt rescheduled for later without reading again', async () => {
    const { calls, stored } = await deliver([sampleDelivery('o', 1, 'callback', 0)], { callback: async () => ({ ok: false, error: 'down' }) });
    assert.equal(stored.deliveries[0]?.attempts, 1, 'rescheduled');
    assert.deepEqual(calls, ['read', 'write', 'release']);
  });

  it('with two sinks due at once, reads nothing after both outcomes are written', async () => {
    const sent: string[] = [];
    const sink: DeliverFunction = async (delivery) => (sent.push(delivery.sink), { ok: true });
    const { calls, stored } = await deliver([sampleDelivery('o', 1, 'callback', 0), sampleDelivery('o', 1, 'webhook', 0)], { callback: sink, webhook: sink });
    assert.deepEqual(sent.sort(), ['callback', 'webhook']);
    assert.equal(stored.deliveries.length, 0);
    // Each attempt reads its own record (they race for it, and one's compare-and-set may be refused
    // and read again): how many reads varies, but none comes after the last outcome is written.
    assert.equal(calls.at(-1), 'release');
    assert.ok(calls.lastIndexOf('read') < calls.lastIndexOf('write'), calls.join(', '));
  });
});
