/**
 * Issue 43: the Postgres store's inbox at group-commit speed, against a real PostgreSQL 15.
 *
 * - Notifications that arrive together share commits: 50 entries kept at once are written by a
 *   handful of transactions (their rows' `xmin`), not 50 (one each, with a WAL flush each, before).
 * - The inbox writes on a connection of its own: with every other connection of the store's budget
 *   held by writes waiting on a lock (apply and delivery work under a burst), a notification is
 *   still kept at once, where it used to wait for a pooled connection.
 * - One id twice among entries committed together: the first is kept, the second is its duplicate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createLogger } from '../../../../src/server/log.js';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { sampleRecord } from '../../../../src/server/stores/store-contract.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';

const postgres = usePostgresDatabase();

let schemas = 0;
const quiet = createLogger({ sink: () => {} });
const entry = (id: string) => ({ id, rawBody: `{"_nonce":"${id}"}`, receivedAt: Date.now() });


describe('Postgres store: the inbox group commit', () => {
  it('50 notifications kept at once share a few commits, each durable before it resolves', async () => {
    const schema = `group_${++schemas}`;
    const store = await createPostgresStore({ url: postgres.url, schema, log: quiet });
    const outside = new pg.Client({ connectionString: postgres.url });
    await outside.connect();
    try {
      const added = await Promise.all(Array.from({ length: 50 }, (_, index) => store.addToInbox(entry(`n-${index}`), 60_000)));
      assert.deepEqual(added, Array.from({ length: 50 }, () => true));
      // Every entry is committed (read from another session) once its call resolved.
      const rows = await outside.query<{ kept: number; commits: number }>(`SELECT count(*)::int AS kept, count(DISTINCT xmin::text)::int AS commits FROM ${schema}.inbox`);
      assert.equal(rows.rows[0]!.kept, 50);
      assert.ok(rows.rows[0]!.commits <= 5, `50 entries kept at once went in ${rows.rows[0]!.commits} transactions`);
      assert.deepEqual((await store.pendingInbox(100)).map((pending) => pending.id), Array.from({ length: 50 }, (_, index) => `n-${index}`), 'in arrival order');
    } finally {
      await outside.end();
      await store.close?.();
    }
  });

  it('one id twice among entries committed together: kept once, the second is a duplicate', async () => {
    const store = await createPostgresStore({ url: postgres.url, schema: `group_${++schemas}`, log: quiet });
    try {
      const [, first, second] = await Promise.all([store.addToInbox(entry('before'), 60_000), store.addToInbox(entry('twice'), 60_000), store.addToInbox(entry('twice'), 60_000)]);
      assert.deepEqual([first, second], [true, false]);
      assert.deepEqual((await store.pendingInbox(10)).map((pending) => pending.id), ['before', 'twice']);
    } finally {
      await store.close?.();
    }
  });

  it('a notification is kept at once while every other connection waits on a lock', async () => {
    const schema = `group_${++schemas}`;
    const store = await createPostgresStore({ url: postgres.url, schema, log: quiet, maxConnections: 2 });
    const record = sampleRecord();
    await store.createIfAbsent(record);
    const holder = new pg.Client({ connectionString: postgres.url });
    await holder.connect();
    try {
      // The lock a write of this order takes first (postgres-write-functions.ts `lock_ids`), held outside.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [schema, record.orderId]);
      const waiting = [1, 2].map((revision) => store.compareAndSet(record.orderId, 0, { ...record, revision }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const kept = await Promise.race([store.addToInbox(entry('during-a-burst'), 60_000), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))]);
      assert.equal(kept, true, `kept within 2 s while the pool was held (${Math.round(performance.now() - started)} ms)`);
      await holder.query('COMMIT');
      assert.deepEqual((await Promise.all(waiting)).sort(), [false, true], 'then one compare-and-set wins, the other finds a new revision');
    } finally {
      await holder.end();
      await store.close?.();
    }
  });
});
