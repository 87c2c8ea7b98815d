/**
 * The `CheckoutStore` contract as a reusable test suite: every store (the in-memory default, and
 * later a persistent or a shared Redis one) must pass it. Call it from a `*.test.ts` file:
 *
 * @example
 * runStoreContract('memory store', ({ now }) => createMemoryStore({ now }));
 *
 * The store gets an injected clock so expiry is tested without sleeping. A store whose expiry is
 * kept by its backend (Redis TTLs) can pass `{ realClock: true }` to skip the clock-driven cases.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckoutRecord, CheckoutStore } from '../../../src/server/index.js';
import { transitionCheckout } from '../../../src/server/index.js';

export interface StoreContractOptions {
  /** The store keeps time by itself (cannot follow an injected clock): skip the expiry cases. */
  realClock?: boolean;
}

export type MakeStore = (deps: { now: () => number }) => CheckoutStore | Promise<CheckoutStore>;

let sequence = 0;

/** A checkout record as the companion writes it, with unique ids. */
export function sampleRecord(overrides: Partial<CheckoutRecord> = {}): CheckoutRecord {
  const n = ++sequence;
  return {
    orderId: `contract-order-${n}`,
    amount: '5000',
    currencyCode: 'XOF',
    decimalPlaces: null,
    token: `token-${n}`,
    tokenHash: `token-hash-${n}`,
    returnId: `return-${n}`,
    returnUrl: null,
    maxAttempts: 3,
    createdAt: 0,
    expiresAt: 30 * 60_000,
    revision: 0,
    version: 0,
    payment: null,
    ...overrides,
  };
}

function withPayment(record: CheckoutRecord, serviceOrderId: string, attempt = 1): CheckoutRecord {
  return {
    ...record,
    revision: record.revision + 1,
    payment: {
      state: 'pending',
      attempt,
      serviceOrderId,
      phoneNumber: '+2290196000001',
      useWallet: false,
      operator: null,
      workflow: 'provider_auth',
      authorizationUrl: null,
      returned: false,
      amountMismatch: false,
      lastServiceStatus: null,
      updatedAt: 0,
    },
  };
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
        const result = await store.createIfAbsent(record, 60_000);
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
        await store.createIfAbsent(first, 60_000);
        const second = sampleRecord({ orderId: first.orderId, amount: '6000' });
        const result = await store.createIfAbsent(second, 60_000);
        assert.equal(result.created, false);
        assert.equal(result.record.amount, '5000');
        assert.equal(result.record.token, first.token);
        assert.equal(await store.getByTokenHash(second.tokenHash), undefined, 'the refused record is not indexed');
        await store.close?.();
      });

      it('stores exactly one of many concurrent creations of one order', async () => {
        const { store } = await setup();
        const orderId = sampleRecord().orderId;
        const results = await Promise.all(Array.from({ length: 20 }, () => store.createIfAbsent(sampleRecord({ orderId }), 60_000)));
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

      it('hands out copies: changing a returned record does not change the store', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record, 60_000);
        const read = (await store.getByOrderId(record.orderId))!;
        read.amount = '1';
        record.amount = '2';
        assert.equal((await store.getByOrderId(record.orderId))!.amount, '5000');
        await store.close?.();
      });
    });

    describe('compareAndSet', () => {
      it('replaces the record when the revision is the expected one, and refuses a stale revision', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record, 60_000);
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
        await store.createIfAbsent(record, 60_000);
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
        await store.createIfAbsent(record, 60_000);
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

      it('makes transitionCheckout atomic: concurrent increments are all kept', async () => {
        const { store } = await setup();
        const record = sampleRecord();
        await store.createIfAbsent(record, 60_000);
        await Promise.all(Array.from({ length: 25 }, () => transitionCheckout(store, record.orderId, (current) => ({ ...current, version: current.version + 1 }))));
        const stored = (await store.getByOrderId(record.orderId))!;
        assert.equal(stored.version, 25);
        assert.equal(stored.revision, 25);
        await store.close?.();
      });
    });

    describe('claimPayIn', () => {
      it('gives the lock to one caller until it is released', async () => {
        const { store } = await setup();
        const results = await Promise.all(Array.from({ length: 5 }, () => store.claimPayIn('order-lock', 60_000)));
        assert.equal(results.filter(Boolean).length, 1);
        assert.equal(await store.claimPayIn('order-lock', 60_000), false);
        assert.equal(await store.claimPayIn('another-order', 60_000), true, 'locks are per checkout');
        await store.releasePayIn('order-lock');
        assert.equal(await store.claimPayIn('order-lock', 60_000), true);
        await store.close?.();
      });
    });

    describe('markNonceSeen', () => {
      it('is true the first time only, also for concurrent callers', async () => {
        const { store } = await setup();
        const results = await Promise.all(Array.from({ length: 10 }, () => store.markNonceSeen('nonce-1', 60_000)));
        assert.deepEqual(results.filter(Boolean).length, 1);
        assert.equal(await store.markNonceSeen('nonce-1', 60_000), false);
        assert.equal(await store.markNonceSeen('nonce-2', 60_000), true);
        await store.close?.();
      });
    });

    if (!options.realClock) {
      describe('expiry (injected clock)', () => {
        it('forgets a checkout after its retention', async () => {
          const { store, clock } = await setup();
          const record = sampleRecord();
          await store.createIfAbsent(record, 60_000);
          clock.at += 59_999;
          assert.ok(await store.getByOrderId(record.orderId));
          clock.at += 2;
          assert.equal(await store.getByOrderId(record.orderId), undefined);
          assert.equal(await store.getByTokenHash(record.tokenHash), undefined);
          const again = await store.createIfAbsent(sampleRecord({ orderId: record.orderId }), 60_000);
          assert.equal(again.created, true);
          await store.close?.();
        });

        it('frees a pay-in lock whose holder never released it once its ttl is over', async () => {
          const { store, clock } = await setup();
          assert.equal(await store.claimPayIn('crashed', 1_000), true);
          clock.at += 1_001;
          assert.equal(await store.claimPayIn('crashed', 1_000), true);
          await store.close?.();
        });

        it('accepts a nonce again after its ttl', async () => {
          const { store, clock } = await setup();
          assert.equal(await store.markNonceSeen('nonce-ttl', 1_000), true);
          clock.at += 999;
          assert.equal(await store.markNonceSeen('nonce-ttl', 1_000), false);
          clock.at += 2;
          assert.equal(await store.markNonceSeen('nonce-ttl', 1_000), true);
          await store.close?.();
        });
      });
    }
  });
}
