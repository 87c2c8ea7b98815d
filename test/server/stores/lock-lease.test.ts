/**
 * stores/lock-lease.ts (issue 45): a lock held as a short lease that its process renews while it
 * works, and the old whole-ttl lock for a store of one's own without `renewLock`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { takeLock } from '../../../src/server/stores/lock-lease.js';

describe('a lock held as a renewed lease', () => {
  it('outlives its lease while the holder lives, frees at release, and is one holder’s at a time', async () => {
    const store = createMemoryStore();
    const held = await takeLock(store, 'pay:lease', { leaseMs: 600, fallbackTtlMs: 60_000 });
    assert.ok(held);
    assert.equal(await takeLock(store, 'pay:lease', { leaseMs: 600, fallbackTtlMs: 60_000 }), null);
    await sleep(2_000);
    assert.equal(await store.claimLock('pay:lease', 'other', 600), false, 'renewed by its timer past three leases');
    assert.equal(await held.stillHeld(), true);
    await held.release();
    assert.equal(await store.claimLock('pay:lease', 'other', 600), true, 'free once released');
  });

  it('tells a holder whose lease lapsed and was taken over, and does not release the new holder’s lock', async () => {
    let skew = 0;
    const store = createMemoryStore({ now: () => Date.now() + skew });
    const held = (await takeLock(store, 'pay:lapsed', { leaseMs: 5_000, fallbackTtlMs: 60_000 }))!;
    skew += 5_001; // the holder paused past its lease
    assert.equal(await store.claimLock('pay:lapsed', 'other', 5_000), true);
    assert.equal(await held.stillHeld(), false);
    await held.release();
    assert.equal(await store.claimLock('pay:lapsed', 'third', 5_000), false, 'the new holder keeps it');
  });

  it('on a store without renewLock: the lock is taken for the whole fallback ttl, as before', async () => {
    const memory = createMemoryStore();
    const { renewLock: _dropped, ...withoutRenew } = memory;
    const store: CheckoutStore = withoutRenew;
    const claims: number[] = [];
    const counted: CheckoutStore = { ...store, claimLock: (key, owner, ttlMs) => (claims.push(ttlMs), store.claimLock(key, owner, ttlMs)) };
    const held = (await takeLock(counted, 'pay:own-store', { leaseMs: 100, fallbackTtlMs: 60_000 }))!;
    assert.deepEqual(claims, [60_000]);
    assert.equal(await held.stillHeld(), true);
    await held.release();
    assert.equal(await store.claimLock('pay:own-store', 'other', 1_000), true);
  });
});
