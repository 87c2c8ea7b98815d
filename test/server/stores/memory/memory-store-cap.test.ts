/**
 * The memory store holds at most `maxRecords` checkouts (issue 12, item 4): the oldest that never
 * started a payment makes room; a checkout with a payment is never dropped for a new one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, StoreFullError, transitionCheckout } from '../../../../src/server/index.js';
import { samplePayment, sampleRecord } from '../../../../src/server/stores/store-contract.js';

const paid = (orderId: string) => samplePayment(orderId);

describe('memory store maxRecords', () => {
  it('drops the oldest checkout without a payment to make room, never one with a payment', async () => {
    const store = createMemoryStore({ now: () => 0, maxRecords: 3 });
    const [a, b, c, d] = [sampleRecord(), sampleRecord(), sampleRecord(), sampleRecord()];
    for (const record of [a, b, c]) await store.createIfAbsent(record);
    // a (the oldest) starts a payment: b is now the oldest without one.
    await transitionCheckout(store, a.orderId, (current) => ({ ...current, payment: paid(current.orderId) }));
    assert.equal((await store.createIfAbsent(d)).created, true);
    assert.ok(await store.getByOrderId(a.orderId), 'the paid one is kept');
    assert.equal(await store.getByOrderId(b.orderId), undefined, 'the oldest unpaid one made room');
    assert.equal(await store.getByTokenHash(b.tokenHash), undefined, 'with its indexes');
    assert.ok(await store.getByOrderId(c.orderId));
    assert.ok(await store.getByOrderId(d.orderId));
  });

  it('refuses a new checkout with a clear error when every held one has a payment', async () => {
    const store = createMemoryStore({ now: () => 0, maxRecords: 2 });
    const held = [sampleRecord(), sampleRecord()];
    for (const record of held) {
      await store.createIfAbsent(record);
      await transitionCheckout(store, record.orderId, (current) => ({ ...current, payment: paid(current.orderId) }));
    }
    await assert.rejects(store.createIfAbsent(sampleRecord()), (error: unknown) => error instanceof StoreFullError && /maxRecords 2/.test(error.message));
    for (const record of held) assert.ok(await store.getByOrderId(record.orderId));
  });

  it('makes room from expired checkouts first', async () => {
    let clock = 0;
    const store = createMemoryStore({ now: () => clock, maxRecords: 2 });
    const old = sampleRecord({ retainUntil: 10 });
    const kept = sampleRecord({ retainUntil: 1_000_000 });
    for (const record of [old, kept]) {
      await store.createIfAbsent(record);
      await transitionCheckout(store, record.orderId, (current) => ({ ...current, payment: paid(current.orderId) }));
    }
    // Both have a payment; one is past its retention (and not swept yet, the sweep being lazy).
    clock = 100;
    assert.equal((await store.createIfAbsent(sampleRecord({ retainUntil: 1_000_000 }))).created, true);
    assert.ok(await store.getByOrderId(kept.orderId));
  });
});
