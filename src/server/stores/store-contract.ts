/**
 * The `CheckoutStore` contract as a reusable test suite (`momo-checkout/store-contract`): every
 * store (memory, file, Redis, or a merchant's own) must pass it. Call it from a test file run by
 * `node --test`:
 *
 * @example
 * import { runStoreContract } from 'momo-checkout/store-contract';
 * runStoreContract('my store', ({ now }) => createMyStore({ now }));
 *
 * The store gets an injected clock so expiry is tested without sleeping. A store whose expiry is
 * kept by its backend (Redis TTLs) can pass `{ realClock: true }` to skip the clock-driven cases.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckoutRecord } from '../model/records.js';
import { updateCheckoutRecord, type CheckoutStore } from './store.js';
import { runVolumeContract } from './store-contract/volume.js';
import { runCreatedPagesContract } from './store-contract/created.js';
import { runDeliveryKindsContract } from './store-contract/kinds.js';
import { runLinksContract } from './store-contract/links.js';
import { runLinkBurstsContract } from './store-contract/link-bursts.js';
import { runServiceOrderIdsContract } from './store-contract/ids.js';
import { runExpiryContract } from './store-contract/expiry.js';
import { runOddTextContract } from './store-contract/odd-text.js';
import { nextSampleNumber, sampleDelivery, samplePayment, sampleRecord, sampleRefund, withPayment, type MakeStore } from './store-contract/samples.js';

export { sampleDelivery, samplePayment, samplePaymentView, sampleRecord, sampleRefund, withPayment, withRefund, type MakeStore } from './store-contract/samples.js';

export interface StoreContractOptions {
  /** The store keeps time by itself (cannot follow an injected clock): skip the expiry cases. */
  realClock?: boolean;
  /**
   * How many finished payments the volume cases (store-contract/volume.ts) surround a stuck refund
   * with. Default 20,100: more than a week of a busy shop's payments (about 1,430 a day).
   */
  volume?: number;
  /**
   * Writes the volume cases' records in bulk, for a store whose one-by-one create costs a round trip
   * and a transaction each: the rows its create would write. Default: `createIfAbsent`, 500 at a time.
   */
  seed?: (store: CheckoutStore, records: readonly CheckoutRecord[]) => Promise<void>;
}

/** Runs a change to a record read from (or given to) a store: a frozen record refuses it with a TypeError. */
function changeOrRefuse(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

export function runStoreContract(name: string, makeStore: MakeStore, options: StoreContractOptions = {}): void {
  const setup = async () => {
    const clock = { at: 1_000_000 };
    const store = await makeStore({ now: () => clock.at });
    return { store, clock };
  };

  describe(`CheckoutStore contract: ${name}`, () => {
    describe('createIfAbsent', () => {
      it('stores a new checkout and finds it by order id, token hash and return id', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        const result = await store.createIfAbsent(record);
        assert.equal(result.created, true);
        assert.deepEqual(result.record, record);
        assert.deepEqual(await store.getByOrderId(record.orderId), record);
        assert.deepEqual(await store.getByTokenHash(record.tokenHash), record);
        assert.deepEqual(await store.getByReturnId(record.returnId), record);
        await store.close?.();
      });

      it('returns the stored checkout, unchanged, when the order id already has one', async () => {
        const { store } = await setup();
        const first = sampleRecord();
        await store.createIfAbsent(first);
        const second = sampleRecord({ orderId: first.orderId, amount: '6000' });
        const result = await store.createIfAbsent(second);
        assert.equal(result.created, false);
        assert.equal(result.record.amount, '5000');
        assert.equal(result.record.token, first.token);
        assert.equal(await store.getByTokenHash(second.tokenHash), undefined, 'the refused record is not indexed');
        await store.close?.();
      });

      it('stores exactly one of many concurrent creations of one order', async () => {
        const { store } = await setup();
        const orderId = sampleRecord().orderId;
        const results = await Promise.all(Array.from({ length: 20 }, () => store.createIfAbsent(sampleRecord({ orderId }))));
        assert.equal(results.filter((result) => result.created).length, 1);
        const tokens = new Set(results.map((result) => result.record.token));
        assert.equal(tokens.size, 1, 'every caller sees the one stored checkout');
        await store.close?.();
      });

      it('answers undefined for what it does not hold', async () => {
        const { store } = await setup();
        assert.equal(await store.getByOrderId('nobody'), undefined);
        assert.equal(await store.getByTokenHash('nobody'), undefined);
        assert.equal(await store.getByReturnId('nobody'), undefined);
        assert.equal(await store.getByServiceOrderId('nobody'), undefined);
        await store.close?.();
      });

      it('hands out copies or frozen records: changing a returned record does not change the store', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record);
        const read = (await store.getByOrderId(record.orderId))!;
        // A store may copy (the change stays in the caller's copy) or freeze (the change throws).
        changeOrRefuse(() => (read.amount = '1'));
        changeOrRefuse(() => (record.amount = '2'));
        assert.equal((await store.getByOrderId(record.orderId))!.amount, '5000');
        await store.close?.();
      });
    });

    describe('compareAndSet', () => {
      it('replaces the record when the revision is the expected one, and refuses a stale revision', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record);
        const next = { ...record, revision: 1, version: 1, decimalPlaces: 0 };
        assert.equal(await store.compareAndSet(record.orderId, 0, next), true);
        assert.equal(await store.compareAndSet(record.orderId, 0, { ...record, revision: 1, amount: '1' }), false);
        const stored = (await store.getByOrderId(record.orderId))!;
        assert.equal(stored.decimalPlaces, 0);
        assert.equal(stored.amount, '5000');
        await store.close?.();
      });

      it('lets exactly one of concurrent writers with the same expected revision win', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record);
        const wins = await Promise.all(
          Array.from({ length: 10 }, (_, index) => store.compareAndSet(record.orderId, 0, { ...record, revision: 1, version: index })),
        );
        assert.equal(wins.filter(Boolean).length, 1);
        await store.close?.();
      });

      it('refuses to write a checkout it does not hold', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        assert.equal(await store.compareAndSet(record.orderId, 0, { ...record, revision: 1 }), false);
        assert.equal(await store.getByOrderId(record.orderId), undefined);
        await store.close?.();
      });

      it('indexes the payment attempt by its service order id (attempt 1 and later ones)', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record);
        const first = withPayment(record, record.orderId);
        assert.equal(await store.compareAndSet(record.orderId, 0, first), true);
        assert.equal((await store.getByServiceOrderId(record.orderId))?.orderId, record.orderId);
        const second = withPayment(first, `${record.orderId}-a2`, 2);
        assert.equal(await store.compareAndSet(record.orderId, 1, second), true);
        const found = await store.getByServiceOrderId(`${record.orderId}-a2`);
        assert.equal(found?.orderId, record.orderId);
        assert.equal(found?.payment?.attempt, 2);
        await store.close?.();
      });

      it('makes updateCheckoutRecord atomic: concurrent increments are all kept', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record);
        await Promise.all(Array.from({ length: 25 }, () => updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, version: current.version + 1 }))));
        const stored = (await store.getByOrderId(record.orderId))!;
        assert.equal(stored.version, 25);
        assert.equal(stored.revision, 25);
        await store.close?.();
      });
    });

    runServiceOrderIdsContract(makeStore);

    describe('locks', () => {
      it('gives a lock to one owner until that owner releases it', async () => {
        const { store } = await setup();
        const results = await Promise.all(Array.from({ length: 5 }, (_, index) => store.claimLock('pay:order-lock', `owner-${index}`, 60_000)));
        assert.equal(results.filter(Boolean).length, 1);
        const winner = `owner-${results.indexOf(true)}`;
        assert.equal(await store.claimLock('pay:order-lock', 'late-owner', 60_000), false);
        assert.equal(await store.claimLock('pay:another-order', 'late-owner', 60_000), true, 'locks are per key');
        await store.releaseLock('pay:order-lock', 'late-owner');
        assert.equal(await store.claimLock('pay:order-lock', 'late-owner', 60_000), false, 'only the owner releases a lock');
        await store.releaseLock('pay:order-lock', winner);
        assert.equal(await store.claimLock('pay:order-lock', 'late-owner', 60_000), true);
        await store.close?.();
      });

      it('renews a lock for its holder only (renewLock, optional)', async () => {
        const { store } = await setup();
        if (!store.renewLock) return;
        assert.equal(await store.claimLock('pay:renewed', 'holder', 60_000), true);
        assert.equal(await store.renewLock('pay:renewed', 'holder', 60_000), true);
        assert.equal(await store.renewLock('pay:renewed', 'other', 60_000), false, 'another owner cannot renew it');
        assert.equal(await store.claimLock('pay:renewed', 'other', 60_000), false, 'nor take it');
        assert.equal(await store.renewLock('pay:never-taken', 'holder', 60_000), false, 'a renewal takes no lock');
        await store.releaseLock('pay:renewed', 'holder');
        assert.equal(await store.renewLock('pay:renewed', 'holder', 60_000), false, 'a released lock is not renewed');
        assert.equal(await store.claimLock('pay:renewed', 'other', 60_000), true);
        await store.close?.();
      });
    });

    describe('console sessions', () => {
      it('knows a signed-out session as ended, and no other', async () => {
        const { store, clock } = await setup();
        if (!store.endConsoleSession || !store.isConsoleSessionEnded) {
          assert.equal(store.endConsoleSession, store.isConsoleSessionEnded, 'a store has both session methods or neither');
          return;
        }
        const [signedOut, stillIn] = [`session-${nextSampleNumber()}`, `session-${nextSampleNumber()}`];
        assert.equal(await store.isConsoleSessionEnded(signedOut), false);
        // Ahead of both clocks, as sampleRecord's retainUntil: a realClock store's backend expires it.
        await store.endConsoleSession(signedOut, Math.max(clock.at, Date.now()) + 3_600_000);
        assert.equal(await store.isConsoleSessionEnded(signedOut), true);
        assert.equal(await store.isConsoleSessionEnded(stillIn), false, 'sessions are ended one by one');
        assert.equal(await store.claimLock(`pay:${signedOut}`, 'owner', 60_000), true, 'and apart from locks');
        await store.close?.();
      });
    });

    describe('inbox', () => {
      it('keeps a notification once, lists it until it is done, and still knows it as seen after', async () => {
        const { store } = await setup();
        const entry = { id: `nonce-${nextSampleNumber()}`, rawBody: '{"orderId":"o-1","amount":100}', receivedAt: 5 };
        const results = await Promise.all(Array.from({ length: 10 }, () => store.addToInbox(entry, 60_000)));
        assert.equal(results.filter(Boolean).length, 1, 'one of concurrent adds wins');
        const later = { id: `nonce-${nextSampleNumber()}`, rawBody: '{"orderId":"o-2","amount":7.5}', receivedAt: 9 };
        assert.equal(await store.addToInbox(later, 60_000), true);
        assert.deepEqual(await store.pendingInbox(10), [entry, later], 'oldest first, the raw body unchanged');
        assert.deepEqual(await store.pendingInbox(1), [entry]);
        await store.markInboxDone(entry.id);
        assert.deepEqual(await store.pendingInbox(10), [later]);
        assert.equal(await store.addToInbox(entry, 60_000), false, 'a done entry is still a duplicate');
        await store.close?.();
      });
    });

    describe('deliveries', () => {
      it('lists the orders whose first pending delivery per sink is due, earliest first', async () => {
        const { store, clock } = await setup();
        const early = sampleRecord();
        const late = sampleRecord();
        const none = sampleRecord();
        for (const record of [early, late, none]) await store.createIfAbsent(record);
        const at = clock.at;
        await store.compareAndSet(late.orderId, 0, { ...late, revision: 1, deliveries: [sampleDelivery(late.orderId, 1, 'callback', at - 10)] });
        await store.compareAndSet(early.orderId, 0, {
          ...early,
          revision: 1,
          // The webhook sink's first delivery waits: its due time is what counts for that sink.
          deliveries: [sampleDelivery(early.orderId, 1, 'webhook', at + 50_000), sampleDelivery(early.orderId, 2, 'callback', at - 20), sampleDelivery(early.orderId, 3, 'webhook', at - 30)],
        });
        assert.deepEqual(await store.dueDeliveries(at, 10), [early.orderId, late.orderId]);
        assert.deepEqual(await store.dueDeliveries(at, 1), [early.orderId]);
        assert.deepEqual(await store.dueDeliveries(at - 25, 10), [], 'nothing is due before its time');
        const current = (await store.getByOrderId(late.orderId))!;
        await store.compareAndSet(late.orderId, 1, { ...current, revision: 2, deliveries: [] });
        assert.deepEqual(await store.dueDeliveries(at, 10), [early.orderId], 'a record without deliveries is not listed');
        await store.close?.();
      });
    });

    describe('listPayments', () => {
      it('lists checkouts with a payment by state and age, oldest change first', async () => {
        const { store } = await setup();
        const tag = `list-${nextSampleNumber()}`;
        const records = [sampleRecord(), sampleRecord(), sampleRecord(), sampleRecord()];
        for (const record of records) await store.createIfAbsent(record);
        await store.compareAndSet(records[0]!.orderId, 0, withPayment(records[0]!, `${tag}-0`, 1, 'pending', 300));
        await store.compareAndSet(records[1]!.orderId, 0, withPayment(records[1]!, `${tag}-1`, 1, 'unknown', 100));
        await store.compareAndSet(records[2]!.orderId, 0, withPayment(records[2]!, `${tag}-2`, 1, 'completed', 200));
        const ours = (list: CheckoutRecord[]) => list.map((record) => record.orderId).filter((id) => records.some((record) => record.orderId === id));
        assert.deepEqual(ours(await store.listPayments({})), [records[1]!.orderId, records[2]!.orderId, records[0]!.orderId]);
        assert.deepEqual(ours(await store.listPayments({ states: ['pending', 'unknown'] })), [records[1]!.orderId, records[0]!.orderId]);
        assert.deepEqual(ours(await store.listPayments({ states: ['pending', 'unknown'], updatedBefore: 200 })), [records[1]!.orderId]);
        assert.equal((await store.listPayments({ limit: 1 })).length, 1);
        await store.close?.();
      });

      it('lists the newest change first and from a time on (the console)', async () => {
        const { store } = await setup();
        const tag = `recent-${nextSampleNumber()}`;
        const records = [sampleRecord(), sampleRecord(), sampleRecord()];
        for (const record of records) await store.createIfAbsent(record);
        await store.compareAndSet(records[0]!.orderId, 0, withPayment(records[0]!, `${tag}-0`, 1, 'pending', 310));
        await store.compareAndSet(records[1]!.orderId, 0, withPayment(records[1]!, `${tag}-1`, 1, 'failed', 110));
        await store.compareAndSet(records[2]!.orderId, 0, withPayment(records[2]!, `${tag}-2`, 1, 'completed', 210));
        const ours = (list: CheckoutRecord[]) => list.map((record) => record.orderId).filter((id) => records.some((record) => record.orderId === id));
        assert.deepEqual(ours(await store.listPayments({ newestFirst: true })), [records[0]!.orderId, records[2]!.orderId, records[1]!.orderId]);
        assert.deepEqual(ours(await store.listPayments({ newestFirst: true, updatedAfter: 210 })), [records[0]!.orderId, records[2]!.orderId]);
        assert.deepEqual(ours(await store.listPayments({ updatedAfter: 150, updatedBefore: 250 })), [records[2]!.orderId]);
        assert.deepEqual(ours(await store.listPayments({ states: ['failed', 'completed'], newestFirst: true, limit: 1 })), [records[2]!.orderId]);
        await store.close?.();
      });
    });

    describe('ping', () => {
      it('answers while the backend is reachable', async () => {
        const { store } = await setup();
        await store.ping();
        await store.close?.();
      });
    });

    runCreatedPagesContract(makeStore, { sampleRecord, samplePayment });

    runDeliveryKindsContract(makeStore, { sampleRecord, sampleDelivery, sampleRefund });

    runOddTextContract(makeStore);

    runLinksContract(makeStore, { realClock: options.realClock ?? false });
    runLinkBurstsContract(makeStore);

    runVolumeContract(makeStore, { sampleRecord, samplePayment }, options.volume ?? 20_100, options.seed);

    if (!options.realClock) runExpiryContract(makeStore);
  });
}
