/**
 * Issue 43, third part: the Postgres store applies a burst in batches, against a real PostgreSQL 15.
 * The calls that one turn makes, or that come while the previous batch is under way, go as one
 * round trip (postgres-batched-calls.ts); migration 6's `compare_and_set_many` checks each row as
 * `compare_and_set` did, so every rule holds inside a batch:
 *
 * - a batch mixing orders: each write written, refused as stale, or refused for a taken service
 *   order id, on its own, in one transaction; a notification for an order no one holds is ignored
 *   (logged) and leaves the inbox, as one applied alone;
 * - two statuses of one order out of order, applied together: the payment ends `completed`, never
 *   goes back, and the merchant hears each transition once, in order;
 * - two companions (two pools, as two processes) applying batches on the same orders at once: each
 *   transition applied once and delivered once;
 * - a backlog left in the inbox (a crash, an outage) is applied at start in batches too, a page at
 *   a time, not one notification after the other;
 * - a schema-5 database (0.4.x's last) is migrated to 6 at start and its rows written by batches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createLogger } from '../../../../src/server/log.js';
import { signWebhook, transitionCheckout, type CheckoutStore, type PaymentUpdate } from '../../../../src/server/index.js';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { insertRecordSql, recordValues } from '../../../../src/server/stores/postgres/postgres-records.js';
import { migrations } from '../../../../src/server/stores/postgres/postgres-schema.js';
import { samplePayment, sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';
import { StoreConflictError } from '../../../../src/server/stores/store.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';
import { newOrderId, startHarness, type Harness } from '../../harness.js';

const postgres = usePostgresDatabase();

let schemas = 0;
const quiet = createLogger({ sink: () => {} });
const phone = '+2290196000001';

/** A pool that counts the writes each call of `compare_and_set_many` carried (one entry per round trip). */
function countingPool() {
  const batches: number[] = [];
  const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('SELECT write_n')) batches.push((JSON.parse((args[1] as string[])[0]!) as unknown[]).length);
      return query(...args);
    };
  });
  return { pool, batches };
}

/** A companion on a Postgres store of `schema`, reached over HTTP, with its updates recorded. */
async function companionOn(schema: string, pool: pg.Pool, logs: string[] = []): Promise<{ h: Harness; store: CheckoutStore; updates: PaymentUpdate[] }> {
  const store = await createPostgresStore({ pool, schema, log: quiet });
  const updates: PaymentUpdate[] = [];
  const log = createLogger({ sink: (line) => void logs.push(line) });
  const h = await startHarness({ store, log, setupChecksAtStart: false, onPaymentUpdate: (update) => void updates.push(update) });
  return { h, store, updates };
}

async function seedPending(h: Harness, store: CheckoutStore, count: number): Promise<string[]> {
  const orderIds = Array.from({ length: count }, () => newOrderId());
  await Promise.all(
    orderIds.map(async (orderId) => {
      await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      await transitionCheckout(store, orderId, (checkout) => ({ ...checkout, payment: samplePayment(orderId) }));
    }),
  );
  return orderIds;
}

const notify = async (h: Harness, orderId: string, status: string, nonce?: string) => {
  const body = await signWebhook({ phoneNumber: phone, amount: 5000, orderId, status }, h.sandbox.webhookSecret, nonce ? { nonce } : {});
  const answer = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal(answer.status, 200);
};

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Postgres store: batched apply (migration 6)', () => {
  it('a batch mixing orders: each write written, stale or taken on its own, in one transaction', async () => {
    const schema = `batch_${++schemas}`;
    const { pool, batches } = countingPool();
    const store = await createPostgresStore({ pool, schema, log: quiet });
    try {
      const records = await Promise.all(Array.from({ length: 30 }, async (_, index) => {
        const record = sampleRecord({ orderId: `mix-${index}` });
        await store.createIfAbsent(record);
        const paid = withPayment(record, `mix-${index}`);
        assert.equal(await store.compareAndSet(record.orderId, record.revision, paid), true);
        return paid;
      }));
      batches.length = 0;
      // In one turn: 24 moves from the revision each writer read, 4 from a revision already gone,
      // 2 claiming an attempt id that order mix-0 owns.
      const calls = records.map((record, index) => {
        if (index >= 28) return store.compareAndSet(record.orderId, record.revision, withPayment(record, 'mix-0', 2));
        const expected = index >= 24 ? record.revision - 1 : record.revision;
        return store.compareAndSet(record.orderId, expected, withPayment(record, record.orderId, 1, 'completed', 5));
      });
      const outcomes = await Promise.allSettled(calls);
      outcomes.forEach((outcome, index) => {
        if (index >= 28) {
          assert.equal(outcome.status, 'rejected', `write ${index} claims mix-0's attempt id`);
          assert.ok((outcome as PromiseRejectedResult).reason instanceof StoreConflictError);
          assert.deepEqual(((outcome as PromiseRejectedResult).reason as StoreConflictError).taken, { serviceOrderId: 'mix-0', owner: 'mix-0' });
        } else assert.deepEqual(outcome, { status: 'fulfilled', value: index < 24 }, `write ${index}`);
      });
      assert.deepEqual(batches, [30], 'the 30 writes of one turn went as one call');
      const rows = await pool.query<{ order_id: string; state: string; revision: number; xmin: string }>(
        `SELECT order_id, record->'payment'->>'state' AS state, revision, xmin::text FROM ${schema}.checkouts ORDER BY order_id`,
      );
      const byOrder = new Map(rows.rows.map((row) => [row.order_id, row]));
      records.forEach((record, index) => {
        const row = byOrder.get(record.orderId)!;
        if (index < 24) assert.deepEqual([row.state, row.revision], ['completed', record.revision + 1], `${record.orderId} written`);
        else assert.deepEqual([row.state, row.revision], ['pending', record.revision], `${record.orderId} unchanged`);
      });
      assert.equal(new Set(records.slice(0, 24).map((record) => byOrder.get(record.orderId)!.xmin)).size, 1, 'the 24 rows written in one transaction');
      const owners = await pool.query<{ order_id: string }>(`SELECT order_id FROM ${schema}.service_order_ids WHERE service_order_id = 'mix-0'`);
      assert.deepEqual(owners.rows, [{ order_id: 'mix-0' }], 'the taken id still names its owner only');
    } finally {
      await store.close?.();
      await pool.end();
    }
  });

  it('a burst mixing orders through the webhook route: each applied once, an unknown order ignored and out of the inbox', async () => {
    const schema = `batch_${++schemas}`;
    const { pool, batches } = countingPool();
    const logs: string[] = [];
    const { h, store, updates } = await companionOn(schema, pool, logs);
    try {
      const orderIds = await seedPending(h, store, 40);
      batches.length = 0;
      const statuses = ['completed', 'failed'];
      await Promise.all([...orderIds.map((orderId, index) => notify(h, orderId, statuses[index % 2]!)), notify(h, 'no-such-order', 'completed')]);
      await until(() => updates.length >= orderIds.length, 'every order delivered');
      await until(async () => (await store.pendingInbox(100)).length === 0, 'the inbox emptied');
      for (const [index, orderId] of orderIds.entries()) {
        assert.equal((await store.getByOrderId(orderId))?.payment?.state, statuses[index % 2], orderId);
        assert.deepEqual(updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state), [statuses[index % 2]], `${orderId} delivered once`);
      }
      assert.ok(logs.some((line) => line.includes('service notification for no current payment ignored') && line.includes('no-such-order')), 'the unknown order is logged');
      assert.ok(batches.some((size) => size > 1), `transitions were written in batches (sizes ${batches.join(', ')})`);
    } finally {
      await h.close();
      await pool.end();
    }
  });

  it('two statuses of one order out of order in one batch: monotone, each transition delivered once, in order', async () => {
    const schema = `batch_${++schemas}`;
    const { pool, batches } = countingPool();
    const { h, store, updates } = await companionOn(schema, pool);
    try {
      const orderIds = await seedPending(h, store, 30);
      batches.length = 0;
      // Half get `completed` before an older `pending` with its authorization URL, half the other way round.
      await Promise.all(orderIds.flatMap((orderId, index) => {
        const completed = notify(h, orderId, 'completed');
        const pending = notify(h, orderId, 'pending');
        return index % 2 === 0 ? [completed, pending] : [pending, completed];
      }));
      await until(async () => (await store.pendingInbox(100)).length === 0 && updates.length >= orderIds.length, 'every notification applied');
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const orderId of orderIds) {
        const record = await store.getByOrderId(orderId);
        assert.equal(record?.payment?.state, 'completed', `${orderId} ends completed, whatever the order`);
        assert.deepEqual(updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state), ['completed'], `${orderId}: one transition, told once`);
        const heard = (record?.timeline ?? []).filter((entry) => entry.kind === 'notification').length;
        assert.equal(heard, 2, `${orderId}: both notifications kept in the timeline`);
      }
      assert.ok(batches.some((size) => size > 1), `transitions were written in batches (sizes ${batches.join(', ')})`);
    } finally {
      await h.close();
      await pool.end();
    }
  });

  it("a batch racing a second process's batch on the same orders: each transition applied once and delivered once", async () => {
    const schema = `batch_${++schemas}`;
    const first = countingPool();
    const second = countingPool();
    const a = await companionOn(schema, first.pool);
    const b = await companionOn(schema, second.pool);
    try {
      const orderIds = await seedPending(a.h, a.store, 60);
      first.batches.length = 0;
      second.batches.length = 0;
      // The same order's `completed` reaches both (a re-emission by support: another nonce), with a
      // `pending` to each as well, all at once.
      await Promise.all(orderIds.flatMap((orderId) => [
        notify(a.h, orderId, 'completed', `${orderId}-a`),
        notify(b.h, orderId, 'completed', `${orderId}-b`),
        notify(a.h, orderId, 'pending', `${orderId}-pa`),
        notify(b.h, orderId, 'pending', `${orderId}-pb`),
      ]));
      const updates = () => [...a.updates, ...b.updates];
      await until(async () => (await a.store.pendingInbox(500)).length === 0 && updates().length >= orderIds.length, 'every notification applied');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const keys = updates().map((update) => update.idempotencyKey);
      assert.equal(new Set(keys).size, keys.length, 'no transition delivered twice');
      for (const orderId of orderIds) {
        assert.equal((await a.store.getByOrderId(orderId))?.payment?.state, 'completed', orderId);
        assert.deepEqual(updates().filter((update) => update.orderId === orderId).map((update) => update.payment.state), ['completed'], `${orderId}: applied and delivered once`);
      }
      assert.ok(first.batches.some((size) => size > 1) && second.batches.some((size) => size > 1), `both applied in batches (${first.batches.length} and ${second.batches.length} calls)`);
    } finally {
      await a.h.close();
      await b.h.close();
      await first.pool.end();
      await second.pool.end();
    }
  });

  it('a backlog left in the inbox is applied at start in batches, each notification once', async () => {
    const schema = `batch_${++schemas}`;
    const { pool, batches } = countingPool();
    const { h, store, updates } = await companionOn(schema, pool);
    let orderIds: string[];
    try {
      orderIds = await seedPending(h, store, 120);
      // Kept and answered, then the process stopped before applying them: only the inbox holds them.
      for (const orderId of orderIds) {
        const body = await signWebhook({ phoneNumber: phone, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
        assert.equal(await store.addToInbox({ id: `${orderId}-kept`, rawBody: body, receivedAt: Date.now() }, 600_000), true);
      }
      assert.equal(updates.length, 0);
    } finally {
      await h.close();
    }
    batches.length = 0;
    const restarted = await companionOn(schema, pool);
    try {
      await until(() => restarted.updates.length >= orderIds.length, 'the backlog applied at start');
      await until(async () => (await restarted.store.pendingInbox(10)).length === 0, 'the inbox emptied');
      for (const orderId of orderIds) assert.equal((await restarted.store.getByOrderId(orderId))?.payment?.state, 'completed', orderId);
      assert.equal(new Set(restarted.updates.map((update) => update.orderId)).size, orderIds.length, 'each delivered once');
      assert.equal(restarted.updates.length, orderIds.length);
      // 240 writes (120 transitions, 120 deliveries recorded): a handful of calls, where one by one took about 200.
      assert.ok(batches.length <= 20, `the backlog's writes went in ${batches.length} calls (sizes ${batches.join(', ')})`);
    } finally {
      await restarted.h.close();
      await pool.end();
    }
  });

  it('a schema-5 database is migrated to the current schema at start, and its rows are written and its leases released in batches', async () => {
    const schema = `batch_${++schemas}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      // The schema as 0.4.x's last release (schema 5) left it, with an order paying and a lease held.
      await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.schema_version (version integer PRIMARY KEY, summary text NOT NULL, applied_by text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const migration of migrations.filter((each) => each.version <= 5)) {
        await admin.query(migration.sql(schema));
        await admin.query(`INSERT INTO ${schema}.schema_version (version, summary, applied_by) VALUES ($1, $2, 'momo-checkout 0.4.1')`, [migration.version, migration.summary]);
      }
      const paying = withPayment(sampleRecord({ orderId: 'from-5' }), 'from-5');
      await admin.query(insertRecordSql(schema), recordValues(paying));
      await admin.query(`INSERT INTO ${schema}.service_order_ids (service_order_id, order_id) VALUES ('from-5', 'from-5')`);
      await admin.query(`INSERT INTO ${schema}.locks (key, owner, until) VALUES ('deliver:from-5', 'before', $1)`, [Date.now() + 60_000]);

      const store = await createPostgresStore({ url: postgres.url, schema, log: quiet });
      try {
        const versions = await admin.query<{ version: number }>(`SELECT version FROM ${schema}.schema_version UNION SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
        assert.deepEqual(versions.rows.map((row) => row.version), [1, 2, 3, 4, 5, 6, 7]);
        const read = (await store.getByOrderId('from-5'))!;
        const [written, stale] = await Promise.all([
          store.compareAndSet('from-5', read.revision, withPayment(read, 'from-5', 1, 'completed', 5)),
          store.compareAndSet('from-5', read.revision, withPayment(read, 'from-5', 1, 'failed', 5)),
        ]);
        assert.deepEqual([written, stale], [true, false], 'the second write of one revision is refused');
        assert.equal((await store.getByOrderId('from-5'))?.payment?.state, 'completed');
        assert.equal(await store.claimLock('deliver:from-5', 'after', 10_000), false, 'the lease taken before the upgrade still holds');
        await store.releaseLock('deliver:from-5', 'before');
        assert.equal(await store.claimLock('deliver:from-5', 'after', 10_000), true, 'released by the batched release');
      } finally {
        await store.close?.();
      }
    } finally {
      await admin.end();
    }
  });
});
