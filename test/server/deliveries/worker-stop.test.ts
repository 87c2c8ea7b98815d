/**
 * A stopped delivery worker starts no new round: a transition applied while the companion closes
 * (its notifications' work is waited for after the worker stops) leaves its delivery queued for the
 * next start, instead of taking the order's delivery lease in a store about to close, where it
 * would stay held for three delivery timeouts (the file store commits a lease asked for before its
 * close, issue 43's group commit).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.js';
import { createDeliveryWorker } from '../../../src/server/deliveries/delivery-worker.js';
import { silentLogger } from '../../../src/server/log.js';
import { sampleDelivery, sampleRecord } from '../../../src/server/stores/store-contract.js';

describe('delivery worker stop', () => {
  it('delivers nothing kicked after stop, leaves it queued, and delivers it once started again', async () => {
    const store = createMemoryStore();
    const record = sampleRecord();
    await store.createIfAbsent({ ...record, deliveries: [sampleDelivery(record.orderId, 1, 'callback', 0)] });
    const sent: string[] = [];
    const worker = createDeliveryWorker({ store, log: silentLogger, now: Date.now, pollMs: 60_000, sinks: { callback: async (delivery) => (sent.push(delivery.id), { ok: true }) } });
    await worker.stop(0);
    worker.kick(record.orderId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(sent, [], 'nothing sent by a stopped worker');
    assert.equal(await store.claimLock(`deliver:${record.orderId}`, 'someone-else', 1), true, 'its delivery lease left free');
    await store.releaseLock(`deliver:${record.orderId}`, 'someone-else');
    assert.equal((await store.getByOrderId(record.orderId))?.deliveries.length, 1, 'still queued');

    worker.start();
    await worker.deliverNow(record.orderId);
    assert.equal(sent.length, 1);
    await worker.stop(0);
  });
});
