/**
 * The Postgres store: the system of record merchants already run (set `MOMO_POSTGRES_URL`), shared
 * by every process and host of the companion, in its own schema beside the shop's tables.
 *
 * Atomicity: each write that races is one SQL transaction (READ COMMITTED), and one round trip: a
 * PL/pgSQL function installed by migration 4 (postgres-write-functions.ts), as the Redis store has
 * one Lua script per write. On a notification's path (reads by order id and service order id,
 * compare-and-sets, delivery leases taken and released) the calls of many callers go together,
 * one round trip for a batch (postgres-batched-calls.ts; migration 7's `compare_and_set_rows`
 * keeps the same locks and the same revision check for each row), so the store applies
 * {@link writersAtOnce} notifications at once.
 * - Records: a write first takes transaction-scoped advisory locks on every id it touches (its order
 *   id and each service order id it carries), in one sorted order, then reads, checks and writes.
 *   Two writers of one order, or a new checkout and another order's attempt claiming the same id,
 *   are thereby serialized, which row locks alone cannot do for an id no row holds yet.
 * - Locks and delivery leases (`claimLock`): lease rows, one `INSERT … ON CONFLICT DO UPDATE …
 *   WHERE` (the row lock Postgres takes on conflict decides), not `SELECT … FOR UPDATE SKIP LOCKED`.
 *   A lease must outlive the transaction that takes it: a delivery is an HTTP POST to the shop that
 *   may take its whole timeout, and SKIP LOCKED would hold a transaction and a pooled connection
 *   open through it. A lease row expires by itself (its `until`) when its holder is killed, like
 *   the other stores' locks, and costs no connection while held.
 * - Inbox: one `INSERT … ON CONFLICT DO UPDATE … WHERE` statement for every entry that arrived
 *   while the previous one was committed (postgres-inbox-writer.ts, on a connection of its own),
 *   committed before any of them returns. With PostgreSQL's default `synchronous_commit = on` that
 *   commit has reached the WAL on disk (and a synchronous standby's, if one is configured) before
 *   the webhook route answers the service.
 *
 * Durability follows the file store's rule: what nothing could rebuild waits for the disk at its
 * commit (the inbox; a checkout's creation; the first write of a payment attempt's or a refund's
 * service order id, made before the pay-in or pay-out is posted; a lock's taking and renewal;
 * signed-out sessions). A compare-and-set that carries no new service order id (applying a kept
 * notification, delivery bookkeeping), an inbox entry's done mark and a lock's release commit with
 * `synchronous_commit = off` for that transaction only: the server's crash may drop the last few
 * hundred milliseconds of those, never out of order (one WAL) and never a later durable one without
 * them, and they are rebuilt: the inbox entry whose application or done mark was lost is still
 * pending and is applied again (nothing changes twice), a delivery whose `delivered` mark was lost
 * is sent again with the same idempotency key, a lost release leaves the lease until its ttl (as a
 * killed holder's). This keeps an fsync off the transition's path.
 *
 * Expiry follows each record's `retainUntil` on the companion's clock: reads filter on it, and a
 * sweep deletes expired rows at most once a minute, on writes (no timer keeps the process alive).
 */
import { createLogger, type Logger } from '../../log.js';
import { serviceOrderIdsOf, type CheckoutRecord } from '../../model/records.js';
import { serviceOrderIdTaken, type CheckoutStore, type PaymentQuery } from '../store.js';
import { dataErrorOf, openPool, retryingAbortedWrite, unavailable, type PostgresConnectionOptions } from './postgres-connection.js';
import { createPostgresDoneMarks } from './postgres-done-marks.js';
import { createPostgresInboxWriter } from './postgres-inbox-writer.js';
import { createPostgresLimits } from './postgres-limits.js';
import { createPostgresLinks } from './postgres-links.js';
import { migrateSchema } from './postgres-migrate.js';
import { keepableText, parseStoredRecord, recordRow, restoredText } from './postgres-records.js';
import { checkSchemaName, defaultSchema } from './postgres-schema.js';
import { takenServiceOrderId } from './postgres-write-functions.js';
import { createBatchedCalls } from './postgres-batched-calls.js';
import { supportViewReads } from './postgres-support-views.js';
import { defaultPaymentListLimit } from '../../model/option-defaults.js';
import { hasUnusableCharacters } from '../../model/id-text.js';

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** The Postgres schema holding the store's tables (default `momo_checkout`, `MOMO_POSTGRES_SCHEMA`). */
  schema?: string;
  /** The companion's clock (tests inject one). Default `Date.now`. */
  now?: () => number;
  log?: Logger;
}

const SWEEP_EVERY_MS = 60_000;
/**
 * Notifications a process applies at once: enough for a burst's backlog to be applied in batches of
 * a few hundred (one round trip per step for all of them), not 8 at a time with a round trip each.
 */
const writersAtOnce = 1024;
type Row = { record: string };

/**
 * @example
 * const store = await createPostgresStore({ url: process.env.MOMO_POSTGRES_URL! });
 * const hub = await createPostgresStatusHub({ url: process.env.MOMO_POSTGRES_URL! });
 * const momo = createCompanion({ ...options, store, hub });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<CheckoutStore> {
  const now = options.now ?? Date.now;
  const log = options.log ?? createLogger();
  const s = checkSchemaName(options.schema ?? defaultSchema);
  const { pool, inboxPool, owned, where, end } = await openPool({ ...options, log });
  try {
    await migrateSchema(pool, s, { log });
  } catch (error) {
    if (owned) await end().catch(() => {});
    throw unavailable(where, error);
  }

  const sql = {
    // Records are read as their json text and parsed here (postgres-records.ts `parseStoredRecord`).
    byToken: `SELECT record::text AS record FROM ${s}.checkouts WHERE token_hash = $1 AND retain_until > $2`,
    byReturn: `SELECT record::text AS record FROM ${s}.checkouts WHERE return_id = $1 AND retain_until > $2`,
    // The racing writes, one round trip each (postgres-write-functions.ts).
    create: `SELECT created, existing::text AS existing FROM ${s}.create_if_absent($1, $2::text[], $3::json, $4)`,
  };

  /** One write function's call, again when the server chose it as a deadlock's victim; a taken service order id is refused in the store's words. */
  const write = async <T extends object>(text: string, values: unknown[]): Promise<T> => {
    try {
      return (await retryingAbortedWrite(() => pool.query<T>(text, values))).rows[0]!;
    } catch (error) {
      const refused = error as { code?: string; detail?: string; hint?: string };
      if (refused.code === takenServiceOrderId) throw serviceOrderIdTaken(refused.detail ?? '', refused.hint ?? '');
      throw dataErrorOf(error);
    }
  };
  const inbox = createPostgresInboxWriter(inboxPool, s, now);
  const doneMarks = createPostgresDoneMarks(pool, s);
  const batched = createBatchedCalls(pool, s, now);
  // An id no record can hold (a NUL, which PostgreSQL's text refuses, a lone surrogate) finds none.
  const one = async (query: string, [id, ...values]: [string, ...unknown[]]) => {
    if (hasUnusableCharacters(id)) return undefined;
    const row = (await pool.query<Row>(query, [id, ...values])).rows[0];
    return row && parseStoredRecord(row.record);
  };

  // Expired rows are deleted on writes, at most once a minute per process (see the header).
  let lastSweep = 0;
  const sweep = async () => {
    const at = now();
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    try {
      await pool.query(
        `WITH c AS (DELETE FROM ${s}.checkouts WHERE retain_until <= $1),
              l AS (DELETE FROM ${s}.locks WHERE until <= $1),
              i AS (DELETE FROM ${s}.inbox WHERE done AND until <= $1),
              e AS (DELETE FROM ${s}.ended_console_sessions WHERE expires_at <= $1),
              b AS (DELETE FROM ${s}.limit_buckets WHERE until <= $1),
              n AS (DELETE FROM ${s}.limit_numbers WHERE until <= $1),
              k AS (DELETE FROM ${s}.links WHERE retain_until <= $1)
         DELETE FROM ${s}.limit_streams WHERE until <= $1`,
        [at],
      );
    } catch (error) {
      log.warn('postgres store sweep failed; it is retried a minute later', { error: error instanceof Error ? error.message : String(error) });
    }
  };

  return {
    kind: 'postgres',
    writersAtOnce,
    // Every process on this database counts against one limit (postgres-limits.ts).
    limits: createPostgresLimits(pool, s, now),
    links: createPostgresLinks(pool, s, now),
    async createIfAbsent(record) {
      const result = await write<{ created: boolean; existing: string | null }>(sql.create, [record.orderId, serviceOrderIdsOf(record), recordRow(record), now()]);
      await sweep();
      return result.created ? { created: true, record: JSON.parse(JSON.stringify(record)) as CheckoutRecord } : { created: false, record: parseStoredRecord(result.existing!) };
    },
    getByOrderId: (orderId) => batched.getByOrderId(orderId),
    getByTokenHash: (tokenHash) => one(sql.byToken, [tokenHash, now()]),
    getByReturnId: (returnId) => one(sql.byReturn, [returnId, now()]),
    getByServiceOrderId: (serviceOrderId) => batched.getByServiceOrderId(serviceOrderId),
    async compareAndSet(orderId, expectedRevision, next) {
      if (next.orderId !== orderId) throw new TypeError(`compareAndSet(${orderId}) was given the record of order ${next.orderId}`);
      const written = await batched.compareAndSet(orderId, expectedRevision, next).catch((error: unknown) => {
        throw dataErrorOf(error);
      });
      await sweep();
      return written;
    },
    // Leases are taken and released in batches too; a release is not waited for on disk (a lost
    // one only keeps the lease until its ttl).
    claimLock: (key, owner, ttlMs) => batched.claimLock(key, owner, ttlMs),
    releaseLock: (key, owner) => batched.releaseLock(key, owner),
    async renewLock(key, owner, ttlMs) {
      const at = now();
      const result = await pool.query(`UPDATE ${s}.locks SET until = $3 WHERE key = $1 AND owner = $2 AND until > $4`, [key, owner, at + Math.max(1, Math.ceil(ttlMs)), at]);
      return result.rowCount === 1;
    },
    async endConsoleSession(sessionId, expiresAt) {
      await pool.query(
        `INSERT INTO ${s}.ended_console_sessions (session_id, expires_at) VALUES ($1, $2)
         ON CONFLICT (session_id) DO UPDATE SET expires_at = greatest(${s}.ended_console_sessions.expires_at, excluded.expires_at)`,
        [sessionId, expiresAt],
      );
    },
    async isConsoleSessionEnded(sessionId) {
      const result = await pool.query(`SELECT 1 FROM ${s}.ended_console_sessions WHERE session_id = $1 AND expires_at > $2`, [sessionId, now()]);
      return result.rowCount === 1;
    },
    async addToInbox(entry, ttlMs) {
      // Committed (synchronous_commit on) before it resolves, together with the entries that came meanwhile.
      const added = await inbox.add({ entry, until: now() + ttlMs }).catch((error: unknown) => {
        throw dataErrorOf(error);
      });
      await sweep();
      return added;
    },
    async pendingInbox(limit) {
      const result = await pool.query<{ id: string; raw_body: string; received_at: string }>(
        `SELECT id, raw_body, received_at FROM ${s}.inbox WHERE NOT done ORDER BY received_at, seq LIMIT $1`,
        [limit],
      );
      return result.rows.map((row) => ({ id: restoredText(row.id), rawBody: restoredText(row.raw_body), receivedAt: Number(row.received_at) }));
    },
    // The id as the inbox writer kept it (postgres-records.ts `keepableText`).
    markInboxDone: (id) => doneMarks.add(keepableText(id)),
    async dueDeliveries(at, limit) {
      const result = await pool.query<{ order_id: string }>(
        `SELECT order_id FROM ${s}.checkouts WHERE next_delivery_at <= $1 AND retain_until > $2 ORDER BY next_delivery_at, order_id LIMIT $3`,
        [at, now(), limit],
      );
      return result.rows.map((row) => row.order_id);
    },
    async listPayments(query: PaymentQuery) {
      const limit = query.limit ?? defaultPaymentListLimit;
      if (limit <= 0 || query.states?.length === 0) return [];
      const values: unknown[] = [now(), limit];
      const where = ['payment_state IS NOT NULL', 'retain_until > $1'];
      if (query.states) where.push(`payment_state = ANY($${values.push([...query.states])}::text[])`);
      if (query.updatedBefore !== undefined) where.push(`payment_updated_at <= $${values.push(query.updatedBefore)}`);
      if (query.updatedAfter !== undefined) where.push(`payment_updated_at >= $${values.push(query.updatedAfter)}`);
      const order = query.newestFirst ? 'payment_updated_at DESC, order_id DESC' : 'payment_updated_at, order_id';
      const result = await pool.query<Row>(`SELECT record::text AS record FROM ${s}.checkouts WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $2`, values);
      return result.rows.map((row) => parseStoredRecord(row.record));
    },
    // Both read the support views' indexed columns (postgres-support-views.ts).
    ...supportViewReads(pool, s, now),
    async ping() {
      await pool.query('SELECT 1');
    },
    async probeWrite() {
      // A committed write: refused by a standby (read-only), a full disk, or a role without rights.
      await pool.query(
        `INSERT INTO ${s}.locks (key, owner, until) VALUES ('probe:write', 'probe', 0) ON CONFLICT (key) DO UPDATE SET until = 0`,
      );
    },
    async close() {
      await inbox.drained();
      await doneMarks.drained();
      await batched.drained();
      if (owned) await end();
    },
  };
}

