/**
 * The Postgres store's calls on the path of a notification's application and delivery, each made
 * for many callers at once (issue 43, third part): a read by order id or by service order id, a
 * compare-and-set, a lease's claim and its release. The calls one turn of the event loop makes, and
 * those that come while batches of their kind are under way (two at a time), go together as the
 * next batch (postgres-batches.ts, `gatherTurn`, `writers`): one round trip for a few hundred
 * notifications where each cost one, so a burst's backlog is applied as fast as it arrives. An
 * idle store still sends a call at once (at the end of its turn), alone.
 *
 * Each caller gets what its own call would have answered: its own copy of a record; `true` or
 * `false` for its compare-and-set, checked against the revision it read, row by row, inside one
 * transaction (`compare_and_set_rows`, postgres-write-functions.ts); its own refusal when its
 * service order id is taken, the batch's other writes going on; whether it took the lease.
 */
import type { Pool } from 'pg';
import { serviceOrderIdsOf, type CheckoutRecord } from '../../model/records.js';
import { serviceOrderIdTaken } from '../store.js';
import { createBatchedWrites } from './postgres-batches.js';
import { retryingAbortedWrite } from './postgres-connection.js';
import { jsonArray, parseStoredRecord, writeRow } from './postgres-records.js';
import { hasUnusableCharacters } from '../../model/id-text.js';

/** Callers per batch: a statement of a few hundred rows is still small and quick. */
const MOST_PER_BATCH = 500;

type Outcome = { outcome: 'written' | 'stale' } | { outcome: 'taken'; id: string; owner: string };

export interface BatchedCalls {
  getByOrderId(orderId: string): Promise<CheckoutRecord | undefined>;
  getByServiceOrderId(serviceOrderId: string): Promise<CheckoutRecord | undefined>;
  compareAndSet(orderId: string, expectedRevision: number, next: CheckoutRecord): Promise<boolean>;
  claimLock(key: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLock(key: string, owner: string): Promise<void>;
  /** Resolves when every call made so far has been answered. */
  drained(): Promise<void>;
}

export function createBatchedCalls(pool: Pool, s: string, now: () => number): BatchedCalls {
  // Two batches of a kind at once: a call waits for at most one batch under way, not a whole one and its own.
  const gathered = { gatherTurn: true, writers: 2 };

  /** Reads by one key: each caller gets its own copy (two callers of one id never share an object). */
  const readsBy = (sql: string) =>
    createBatchedWrites<string, CheckoutRecord | undefined>(async (keys) => {
      // An id no record can hold (a NUL, which PostgreSQL's text refuses, a lone surrogate) finds none: not sent.
      const asked = [...new Set(keys)].filter((key) => !hasUnusableCharacters(key));
      const result = asked.length === 0 ? { rows: [] } : await pool.query<{ key: string; record: string }>(sql, [asked, now()]);
      const found = new Map(result.rows.map((row) => [row.key, row.record]));
      // Parsed once per caller: two callers of one id never share an object.
      return keys.map((key) => {
        const record = found.get(key);
        return record === undefined ? undefined : parseStoredRecord(record);
      });
    }, MOST_PER_BATCH, gathered);
  const byOrderId = readsBy(`SELECT order_id AS key, record::text AS record FROM ${s}.checkouts WHERE order_id = ANY ($1::text[]) AND retain_until > $2`);
  const byServiceOrderId = readsBy(
    `SELECT i.service_order_id AS key, c.record::text AS record FROM ${s}.service_order_ids i JOIN ${s}.checkouts c ON c.order_id = i.order_id
     WHERE i.service_order_id = ANY ($1::text[]) AND c.retain_until > $2`,
  );

  type Write = { orderId: string; expected: number; next: CheckoutRecord };
  const compareAndSetMany = async (batch: Write[]): Promise<Outcome[]> => {
    // One json document of flat rows, as UTF-8 bytes (postgres-records.ts says why), read once by migration 7's function.
    const writes = jsonArray(batch.map((write, index) => writeRow(index + 1, write.expected, serviceOrderIdsOf(write.next), write.next)));
    const result = await retryingAbortedWrite(() =>
      pool.query<{ write_n: number; outcome: 'written' | 'stale' | 'taken'; taken_id: string | null; taken_owner: string | null }>(
        `SELECT write_n, outcome, taken_id, taken_owner FROM ${s}.compare_and_set_rows($1::json, $2)`,
        [writes, now()],
      ),
    );
    const outcomes = new Map(result.rows.map((row) => [row.write_n, row]));
    return batch.map((_, index) => {
      const row = outcomes.get(index + 1);
      if (!row) throw new Error(`compare_and_set_rows answered no outcome for write ${index + 1} of ${batch.length}`);
      return row.outcome === 'taken' ? { outcome: 'taken', id: row.taken_id ?? '', owner: row.taken_owner ?? '' } : { outcome: row.outcome };
    });
  };
  const compareAndSets = createBatchedWrites<Write, Outcome | { failed: unknown }>(async (batch) => {
    try {
      return await compareAndSetMany(batch);
    } catch (error) {
      // A write the server refuses for its data (a value a column cannot hold) fails the whole
      // transaction: each is then tried alone, so that it fails only its own caller. Any other
      // error (the server unreachable, a timeout) is every caller's, as it would have been alone.
      if (batch.length === 1 || !/^(22|23|P0)/.test((error as { code?: string }).code ?? '')) throw error;
      return Promise.all(batch.map((write) => compareAndSetMany([write]).then((alone) => alone[0]!, (failed: unknown) => ({ failed }))));
    }
  }, MOST_PER_BATCH, gathered);

  // Taking a lease waits for the disk (a second holder after a crash would deliver twice at once).
  // Keys sorted, so two processes' batches lock their rows in one order.
  const claims = createBatchedWrites<{ key: string; owner: string; until: number }, boolean>(async (batch) => {
    const rows = [...batch].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const result = await retryingAbortedWrite(() =>
      pool.query<{ key: string }>(
        `INSERT INTO ${s}.locks (key, owner, until) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE ${s}.locks.until <= $4 OR ${s}.locks.owner = excluded.owner
         RETURNING key`,
        [rows.map((row) => row.key), rows.map((row) => row.owner), rows.map((row) => row.until), now()],
      ),
    );
    const taken = new Set(result.rows.map((row) => row.key));
    return batch.map((claim) => taken.has(claim.key));
  }, MOST_PER_BATCH, { ...gathered, keyOf: (claim) => claim.key });

  const releases = createBatchedWrites<{ key: string; owner: string }, void>(async (batch) => {
    await pool.query(`SELECT ${s}.release_locks($1::text[], $2::text[])`, [batch.map((lease) => lease.key), batch.map((lease) => lease.owner)]);
    return [];
  }, MOST_PER_BATCH, gathered);

  return {
    getByOrderId: (orderId) => byOrderId.add(orderId),
    getByServiceOrderId: (serviceOrderId) => byServiceOrderId.add(serviceOrderId),
    async compareAndSet(orderId, expectedRevision, next) {
      const answer = await compareAndSets.add({ orderId, expected: expectedRevision, next });
      if ('failed' in answer) throw answer.failed;
      if (answer.outcome === 'taken') throw serviceOrderIdTaken(answer.id, answer.owner);
      return answer.outcome === 'written';
    },
    claimLock: (key, owner, ttlMs) => claims.add({ key, owner, until: now() + Math.max(1, Math.ceil(ttlMs)) }),
    releaseLock: (key, owner) => releases.add({ key, owner }),
    async drained() {
      await Promise.all([byOrderId, byServiceOrderId, compareAndSets, claims, releases].map((batches) => batches.drained()));
    },
  };
}
