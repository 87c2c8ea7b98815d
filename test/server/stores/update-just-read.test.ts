/**
 * `updateCheckoutRecord`'s `justRead`: a record the caller has just read is written against without
 * reading it again (one read fewer per notification applied and per delivery recorded, issue 43),
 * and a record changed since is still never overwritten: the compare-and-set refuses the stale one
 * and the next attempt reads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { sampleRecord } from '../../../src/server/stores/store-contract.js';
import { updateCheckoutRecord } from '../../../src/server/stores/store.js';

/** The store, and how many times its records were read by order id. */
function countingReads(store: CheckoutStore) {
  const reads = { count: 0 };
  const counted: CheckoutStore = { ...store, getByOrderId: (orderId) => (reads.count++, store.getByOrderId(orderId)) };
  return { store: counted, reads };
}

describe('updateCheckoutRecord with the record just read', () => {
  it('writes against it without reading it again, and reads again when it changed since', async () => {
    const { store, reads } = countingReads(createMemoryStore());
    const { record } = await store.createIfAbsent(sampleRecord());
    const justRead = (await store.getByOrderId(record.orderId))!;
    reads.count = 0;
    const result = await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, version: current.version + 1 }), justRead);
    assert.equal(result.changed, true);
    assert.equal(reads.count, 0, 'no second read of the record just read');
    assert.equal((await store.getByOrderId(record.orderId))?.version, 1);

    // Changed since it was read: the stale copy is refused, the record read, and neither write lost.
    const stale = (await store.getByOrderId(record.orderId))!;
    await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, decimalPlaces: 0 }));
    reads.count = 0;
    await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, version: current.version + 1 }), stale);
    assert.equal(reads.count, 1, 'the stale copy was refused, then the record read');
    const latest = await store.getByOrderId(record.orderId);
    assert.deepEqual([latest?.decimalPlaces, latest?.version, latest?.revision], [0, 2, 3]);
  });
});
