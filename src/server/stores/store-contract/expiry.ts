/**
 * The contract's cases of expiry (part of `momo-checkout/store-contract`), on the injected clock:
 * a checkout forgotten at its retainUntil, a lock or a lease at its ttl, a signed-out console
 * session and an inbox id at theirs. Skipped for a store whose backend keeps time by itself
 * (`realClock`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextSampleNumber, sampleRecord } from './samples.js';
import type { MakeStore } from './samples.js';

export function runExpiryContract(makeStore: MakeStore): void {
  const setup = async () => {
    const clock = { at: 1_000_000 };
    const store = await makeStore({ now: () => clock.at });
    return { store, clock };
  };

  describe('expiry (injected clock)', () => {
    it('forgets a checkout at its retainUntil, and a write moves it', async () => {
      const { store, clock } = await setup();
      const record = sampleRecord({ retainUntil: clock.at + 60_000 });
      await store.createIfAbsent(record);
      clock.at += 59_999;
      assert.ok(await store.getByOrderId(record.orderId));
      assert.equal(await store.compareAndSet(record.orderId, 0, { ...record, revision: 1, retainUntil: clock.at + 120_000 }), true);
      clock.at += 100_000;
      assert.ok(await store.getByOrderId(record.orderId), 'kept to the retainUntil of the last write');
      clock.at += 20_002;
      assert.equal(await store.getByOrderId(record.orderId), undefined);
      assert.equal(await store.getByTokenHash(record.tokenHash), undefined);
      const again = await store.createIfAbsent(sampleRecord({ orderId: record.orderId, retainUntil: clock.at + 60_000 }));
      assert.equal(again.created, true);
      await store.close?.();
    });

    it('frees a lock whose holder never released it once its ttl is over', async () => {
      const { store, clock } = await setup();
      assert.equal(await store.claimLock('pay:crashed', 'first', 1_000), true);
      assert.equal(await store.claimLock('pay:crashed', 'second', 1_000), false);
      clock.at += 1_001;
      assert.equal(await store.claimLock('pay:crashed', 'second', 1_000), true);
      await store.close?.();
    });

    it('keeps a renewed lock past its first ttl, and never renews a lapsed one (renewLock, optional)', async () => {
      const { store, clock } = await setup();
      if (!store.renewLock) return;
      assert.equal(await store.claimLock('pay:leased', 'holder', 1_000), true);
      clock.at += 800;
      assert.equal(await store.renewLock('pay:leased', 'holder', 1_000), true);
      clock.at += 800;
      assert.equal(await store.claimLock('pay:leased', 'other', 1_000), false, 'the renewal holds it 1 s from the renewal');
      clock.at += 201;
      assert.equal(await store.renewLock('pay:leased', 'holder', 1_000), false, 'a holder whose lease lapsed learns it');
      assert.equal(await store.claimLock('pay:leased', 'other', 1_000), true, 'and another takes it at once');
      assert.equal(await store.renewLock('pay:leased', 'holder', 1_000), false, 'the old holder cannot take it back by renewing');
      await store.close?.();
    });

    it('forgets a signed-out session at its expiry', async () => {
      const { store, clock } = await setup();
      if (!store.endConsoleSession || !store.isConsoleSessionEnded) return;
      const session = `session-ttl-${nextSampleNumber()}`;
      await store.endConsoleSession(session, clock.at + 1_000);
      clock.at += 999;
      assert.equal(await store.isConsoleSessionEnded(session), true);
      clock.at += 2;
      assert.equal(await store.isConsoleSessionEnded(session), false);
      await store.close?.();
    });

    it('accepts an inbox id again only after its ttl', async () => {
      const { store, clock } = await setup();
      const entry = { id: `nonce-ttl-${nextSampleNumber()}`, rawBody: '{}', receivedAt: clock.at };
      assert.equal(await store.addToInbox(entry, 1_000), true);
      await store.markInboxDone(entry.id);
      clock.at += 999;
      assert.equal(await store.addToInbox(entry, 1_000), false);
      clock.at += 2;
      assert.equal(await store.addToInbox(entry, 1_000), true);
      await store.close?.();
    });
  });
}
