/**
 * Issue 43, PostgreSQL's cost per notification: migration 7 against a real PostgreSQL 15.
 *
 * - a batch of compare-and-sets, and a group commit of inbox entries, each go as ONE json document
 *   of UTF-8 bytes (no array literal for `pg` to escape element by element, no string of the whole
 *   batch), and a record holding a masked number's bullets is stored as written and read back equal;
 * - a write that carries only service order ids its order already owns leaves the registry's rows
 *   as they were (migration 6 wrote each of them again, a new row version per write);
 * - `checkouts` keeps half of each new page free for the next versions of its rows;
 * - a 0.5.0 process beside a newer one during an upgrade still writes through migration 6's
 *   `compare_and_set_many` on a schema-7 database, under the same revision check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createLogger } from '../../../../src/server/log.js';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { recordRow } from '../../../../src/server/stores/postgres/postgres-records.js';
import { sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';
import type { CheckoutRecord } from '../../../../src/server/model/records.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';

const postgres = usePostgresDatabase();

let schemas = 0;
const quiet = createLogger({ sink: () => {} });

/** A pool that records each statement's text and parameters. */
function recordingPool() {
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string') sent.push({ text: args[0], values: (args[1] as unknown[]) ?? [] });
      return query(...args);
    };
  });
  return { pool, sent };
}

/** `record` paid, with a merchant notification's payload holding the masked number (two bytes a character in JavaScript). */
function withMaskedNumber(record: CheckoutRecord): CheckoutRecord {
  const paid = withPayment(record, record.orderId, 1, 'completed', 5);
  return { ...paid, timeline: [{ kind: 'notification', at: 5, status: 'completed', serviceOrderId: record.orderId, note: '+229••••••••01 “payé” ✓' } as never] };
}

describe('Postgres store: migration 7, rows written from one json document', () => {
  it('sends a batch of compare-and-sets and a group commit of inbox entries as one json document each, and keeps a masked number as written', async () => {
    const schema = `rows_${++schemas}`;
    const { pool, sent } = recordingPool();
    const store = await createPostgresStore({ pool, schema, log: quiet });
    try {
      const records = await Promise.all(Array.from({ length: 12 }, async (_, index) => {
        const record = sampleRecord({ orderId: `doc-${index}` });
        await store.createIfAbsent(record);
        return record;
      }));
      sent.length = 0;
      const written = await Promise.all(records.map((record) => store.compareAndSet(record.orderId, record.revision, withMaskedNumber(record))));
      assert.deepEqual(written, records.map(() => true));
      const bodies = ['{"orderId":"doc-0","note":"a \\"quoted\\" \\\\ back\\\\slash"}', '{"orderId":"doc-1","phone":"+229••••••••01"}'];
      const kept = await Promise.all(bodies.map((rawBody, index) => store.addToInbox({ id: `nonce-${index}`, rawBody, receivedAt: index }, 60_000)));
      assert.deepEqual(kept, [true, true]);

      const writes = sent.filter((statement) => statement.text.includes('compare_and_set_rows'));
      assert.equal(writes.length, 1, 'the 12 writes of one turn went as one call of compare_and_set_rows');
      assert.ok(Buffer.isBuffer(writes[0]!.values[0]), 'the batch went as the bytes of one json document');
      assert.equal((JSON.parse(writes[0]!.values[0]!.toString()) as unknown[]).length, 12);
      const inserts = sent.filter((statement) => statement.text.includes(`INSERT INTO ${schema}.inbox`));
      assert.ok(inserts.length >= 1 && inserts.every((insert) => Buffer.isBuffer(insert.values[0]) && !insert.values.some(Array.isArray)), 'inbox entries went as one json document, no array');

      for (const record of records) {
        const expected = withMaskedNumber(record);
        assert.deepEqual(await store.getByOrderId(record.orderId), expected, `${record.orderId} read back as written`);
        const stored = await pool.query<{ text: string }>(`SELECT record::text AS text FROM ${schema}.checkouts WHERE order_id = $1`, [record.orderId]);
        assert.equal(stored.rows[0]!.text, JSON.stringify(expected), `${record.orderId}: the record's json text kept byte for byte`);
      }
      const pending = await store.pendingInbox(10);
      assert.deepEqual(pending.map((entry) => entry.rawBody), bodies, 'the raw bodies kept as received, in their order');
    } finally {
      await store.close?.();
      await pool.end();
    }
  });

  it('leaves the registry rows of service order ids an order already owns as they were when it writes again', async () => {
    const schema = `rows_${++schemas}`;
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const store = await createPostgresStore({ pool, schema, log: quiet });
    try {
      const record = sampleRecord({ orderId: 'registry-1' });
      await store.createIfAbsent(record);
      const paying = withPayment(record, 'registry-1-a1');
      assert.equal(await store.compareAndSet(record.orderId, record.revision, paying), true);
      const version = async () => (await pool.query<{ xmin: string }>(`SELECT xmin::text FROM ${schema}.service_order_ids WHERE service_order_id = 'registry-1-a1'`)).rows[0]!.xmin;
      const before = await version();
      assert.equal(await store.compareAndSet(record.orderId, paying.revision, withPayment(paying, 'registry-1-a1', 1, 'completed', 5)), true);
      assert.equal(await version(), before, "the attempt id's registry row was not written again");
      assert.equal((await store.getByServiceOrderId('registry-1-a1'))?.payment?.state, 'completed');
    } finally {
      await store.close?.();
      await pool.end();
    }
  });

  it('keeps half of each new page of checkouts free for the next versions of its rows', async () => {
    const schema = `rows_${++schemas}`;
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    const store = await createPostgresStore({ pool, schema, log: quiet });
    try {
      const options = await pool.query<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE oid = '${schema}.checkouts'::regclass`);
      assert.deepEqual(options.rows[0]!.reloptions, ['fillfactor=50']);
    } finally {
      await store.close?.();
      await pool.end();
    }
  });

  it("lets a 0.5.0 process beside it write through migration 6's compare_and_set_many, under the same revision check", async () => {
    const schema = `rows_${++schemas}`;
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const store = await createPostgresStore({ pool, schema, log: quiet });
    try {
      // Migration 7 applied, and not recorded where 0.5.0 looks (schema_version stays at 6).
      const versions = await pool.query<{ applied: number; required: number }>(
        `SELECT (SELECT max(version) FROM ${schema}.schema_migrations) AS applied, (SELECT max(version) FROM ${schema}.schema_version) AS required`,
      );
      assert.deepEqual(versions.rows[0], { applied: 7, required: 6 });
      const record = sampleRecord({ orderId: 'beside-1' });
      await store.createIfAbsent(record);
      const paying = withPayment(record, 'beside-1');
      // What 0.5.0's batched calls send: its document of writes, each with its row.
      const oldWrite = (expected: number, next: CheckoutRecord) =>
        pool.query<{ outcome: string }>(`SELECT outcome FROM ${schema}.compare_and_set_many($1::json, $2)`, [
          JSON.stringify([{ orderId: next.orderId, expected, serviceIds: [next.payment!.serviceOrderId], row: JSON.parse(recordRow(next)) as unknown }]),
          Date.now(),
        ]);
      assert.deepEqual((await oldWrite(record.revision, paying)).rows, [{ outcome: 'written' }]);
      assert.deepEqual((await oldWrite(record.revision, paying)).rows, [{ outcome: 'stale' }], 'a second write of one revision is stale');
      assert.equal(await store.compareAndSet(record.orderId, record.revision, withPayment(record, 'beside-1', 1, 'failed')), false, 'the new process sees the old one’s write');
      assert.equal(await store.compareAndSet(record.orderId, paying.revision, withPayment(paying, 'beside-1', 1, 'completed', 5)), true);
      assert.equal((await store.getByServiceOrderId('beside-1'))?.payment?.state, 'completed');
    } finally {
      await store.close?.();
      await pool.end();
    }
  });
});
