/**
 * Issue 40, findings 1 and 2, on every store: at a busy shop's volume nothing goes unseen. With
 * 20,100 completed payments this week (more than the 10,000 and 20,000 the 0.4.0 scans read, oldest
 * first), the newest payment's refund left `sending` ten minutes ago is listed as stale, counted in
 * `momo_payments_stuck{kind="refund"}` and posted again by a restarted companion; and 8 payments
 * failed in the last hour are counted in `momo_operator_finished_payments{window="1h"}` with their
 * ratio (what `MomoOperatorBelowUsualRate` reads). A companion in front of the sandbox, over HTTP.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCompanion, createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import type { CheckoutRecord } from '../../../src/server/model/records.js';
import { newRefundRecord } from '../../../src/server/model/refund.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../../../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { sampleRecord, samplePayment } from '../../../src/server/stores/store-contract.js';
import { updateCheckoutRecord } from '../../../src/server/stores/store.js';
import { refundCompanionOptions } from '../refunds/fixtures/companion-options.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { metricsToken, scrape } from '../metrics/scrape.js';
import { startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { seedFileStore, seedPostgresStore } from '../../support/seed-records.js';

const hourMs = 3_600_000;
const weekMs = 7 * 24 * hourMs;
const operator = { code: 'busy', name: 'Busy Operator', logoUrl: 'https://example.test/busy.png', instructions: null };

/** 20,100 completed over the week before the last hour, and 8 failed in the last hour, of one operator. */
function busyWeek(now: number): CheckoutRecord[] {
  const tag = `busy-${now}`;
  const payment = (index: number, state: 'completed' | 'failed', updatedAt: number): CheckoutRecord => {
    const record = sampleRecord({ orderId: `${tag}-${index}`, createdAt: updatedAt, retainUntil: updatedAt + weekMs + hourMs });
    return { ...record, payment: samplePayment(`${tag}-${index}`, { state, updatedAt, operator, ...(state === 'completed' ? { reportedPhoneNumber: '+2290196000001' } : {}) }) };
  };
  const completed = Array.from({ length: 20_100 }, (_, index) => payment(index, 'completed', now - weekMs + 2 * hourMs + Math.floor(((weekMs - 4 * hourMs) * index) / 20_100)));
  const failed = Array.from({ length: 8 }, (_, index) => payment(20_100 + index, 'failed', now - 50 * 60_000 + index * 60_000));
  return [...completed, ...failed];
}

async function createMany(store: CheckoutStore, records: readonly CheckoutRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += 500) await Promise.all(records.slice(start, start + 500).map((record) => store.createIfAbsent(record)));
}

const dir = mkdtempSync(join(tmpdir(), 'momo-support-volume-'));
let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
after(async () => {
  await redis?.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Each store: how to open it, and how to write the busy week into it (in bulk where its create is slow). */
const engines: Array<{ name: string; open(): Promise<{ store: CheckoutStore; seed(records: CheckoutRecord[]): Promise<void> }> }> = [
  {
    name: 'memory',
    async open() {
      const store = createMemoryStore({ maxRecords: 50_000 });
      return { store, seed: (records) => createMany(store, records) };
    },
  },
  {
    name: 'file (SQLite)',
    async open() {
      const path = join(dir, 'busy.sqlite');
      const store = createFileStore({ path });
      return { store, seed: async (records) => seedFileStore(path, records) };
    },
  },
  {
    name: 'Redis',
    async open() {
      redis = await startRedisServer();
      const store = await createRedisStore({ url: redis.url, log: silentLogger });
      return { store, seed: (records) => createMany(store, records) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      postgres = await startPostgresServer();
      const url = postgres.url;
      const store = await createPostgresStore({ url, log: silentLogger });
      return { store, seed: (records) => seedPostgresStore(url, 'momo_checkout', records) };
    },
  },
];

for (const engine of engines) {
  describe(`a busy week on the ${engine.name} store`, () => {
    let h: Harness;
    let store: CheckoutStore;
    const orderId = newOrderId();
    before(async () => {
      const opened = await engine.open();
      store = opened.store;
      // Stale after 5 minutes: the refund's ten are past it.
      h = await startHarness({ refunds: true, store, metricsToken, metricsStoreGaugesEveryMs: 0, staleAfterMinutes: 5 });
      await opened.seed(busyWeek(Date.now()));
      // The newest payment, paid through the sandbox, whose refund's process stopped ten minutes ago.
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } });
      await h.waitFor(orderId, (view) => view.state === 'completed');
      const tenMinutesAgo = Date.now() - 10 * 60_000;
      await updateCheckoutRecord(store, orderId, (record) => ({
        ...record,
        refunds: [newRefundRecord({ refundId: 'rf-busy', payoutOrderId: `${orderId}-r1`, amount: '2500', reason: null, phoneNumber: record.payment!.reportedPhoneNumber! }, tenMinutesAgo)],
      }));
    });
    after(async () => {
      await h?.close(); // and the store with it
    });

    it('lists the newest refund left sending as stale, and counts it in the stuck gauge (finding 1)', async () => {
      const stale = await h.companion.listPayments({ state: 'stale', olderThanMinutes: 5 });
      assert.ok(stale.some((item) => item.orderId === orderId && item.refund?.refundId === 'rf-busy'), 'the stuck refund is in GET /payments?state=stale');
      assert.equal((await scrape(h.base)).value('momo_payments_stuck', { kind: 'refund' }), 1);
    });

    it('reads the last hour of each operator, none cut (finding 2)', async () => {
      const metrics = await scrape(h.base);
      assert.equal(metrics.value('momo_operator_finished_payments', { operator: operator.name, window: '1h' }), 8, 'the last hour is read, not cut');
      assert.equal(metrics.value('momo_operator_completion_ratio', { operator: operator.name, window: '1h' }), 0);
      assert.equal(metrics.value('momo_operator_finished_payments', { operator: operator.name, window: 'usual' }), 20_100);
    });

    it('posts the refund again from a restarted companion, once, under its own pay-out id (finding 1)', async () => {
      // It shares the store with the first: its close leaves the store open.
      const restarted = createCompanion(refundCompanionOptions(h.sandbox, { ...store, close: async () => {} }));
      try {
        await restarted.resumed;
      } finally {
        await restarted.close();
      }
      assert.notEqual((await store.getByOrderId(orderId))!.refunds![0]!.state, 'sending');
      const payouts = h.sandbox.control.transactions().filter((entry) => entry.kind === 'payout' && entry.orderId === `${orderId}-r1`);
      assert.equal(payouts.length, 1);
    });
  });
}
