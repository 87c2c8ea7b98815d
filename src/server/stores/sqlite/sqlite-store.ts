/**
 * Part `stores/sqlite/`: the file store (SQLite through better-sqlite3). May import stores/, model/
 * and the foundation.
 *
 * The default store: one SQLite file on the companion's disk (better-sqlite3), so checkouts,
 * payments and received notifications survive a restart, and several processes on one host can
 * share it. Records are kept as JSON text next to the few columns that are looked up or indexed.
 *
 * better-sqlite3 is synchronous: each method runs its reads and writes in one transaction without
 * yielding, and writes take SQLite's write lock first (`BEGIN IMMEDIATE`), so a read that decides
 * and the write that follows cannot be interleaved with another process's write.
 *
 * Durability: WAL. Every commit has reached the operating system before it returns, so every write
 * survives `kill -9` of the process. Two kinds of write also reach the disk itself (fsync, which
 * survives a power cut or a kernel crash) before they return, because nothing could rebuild them:
 *
 * - a notification kept in the inbox (the service sends it once; the companion answers `200` only
 *   after this write);
 * - the first write of a payment attempt's or a refund's service order id (made before the pay-in
 *   or pay-out is posted: a notification must find its order, a refund must not be paid twice).
 *
 * Everything else (applying a kept notification, delivery bookkeeping) can be rebuilt from those:
 * a pending inbox entry is applied again. An fsync of the WAL also makes every earlier commit
 * durable. A commit costs (an fsync milliseconds) and better-sqlite3 blocks the event loop
 * meanwhile, so writes are group-committed: those asked for in the same turn of the event loop
 * share one transaction and one commit, fsynced when one of them must be (sqlite-write-batch.ts;
 * the figures are in bench/stores.ts and bench/companion.ts).
 *
 * This file assembles the store from its pieces: the schema, pragmas and migration
 * (sqlite-schema.ts), the SQL (sqlite-statements.ts), the atomic read-decide-write steps
 * (sqlite-transactions.ts), the fsynced write (sqlite-fsync.ts), the group commit
 * (sqlite-write-batch.ts), the checkpoints on a thread of their own (sqlite-checkpointer.ts) and
 * the shared limits (sqlite-limits.ts).
 */
import { join } from 'node:path';
import type { InboxEntry } from '../../model/records.js';
import type { CheckoutStore, PaymentQuery } from '../store.js';
import { createSqliteLimits } from './sqlite-limits.js';
import { inWalMode, openSqlite } from './sqlite-open.js';
import { prepareFileStoreDatabase } from './sqlite-schema.js';
import { createListStatements, parseRecord, prepareStatements } from './sqlite-statements.js';
import { prepareTransactions } from './sqlite-transactions.js';
import { defaultPaymentListLimit } from '../../model/option-defaults.js';
import { createWriteBatch } from './sqlite-write-batch.js';
import { createSqliteLinks } from './sqlite-links.js';
import { startCheckpointer, startCheckpointerAfterWrites, type Checkpointer } from './sqlite-checkpointer.js';

export { FileStoreUnavailableError } from './file-store-error.js';

export interface FileStoreOptions {
  /** The database file. Default `<dataDir>/momo-checkout.sqlite`. */
  path?: string;
  /** Default `process.env.MOMO_DATA_DIR ?? './.momo-checkout'` (created if missing). */
  dataDir?: string;
  /** The companion's clock (tests inject one). Default `Date.now`. */
  now?: () => number;
  /** Where `better_sqlite3.node` is, when a bundler moved it (better-sqlite3's `nativeBinding`). */
  nativeBinding?: string;
}

/** A signed-out console session's row in `locks` (no lock name the companion takes starts so). */
const endedSessionKey = 'console-session-ended:';
const endedSessionOwner = 'signed-out';
const SWEEP_EVERY_MS = 60_000;

/**
 * @example
 * const momo = createCompanion({ ...options, store: createFileStore({ dataDir: '/var/lib/shop' }) });
 */
export function createFileStore(options: FileStoreOptions = {}): CheckoutStore {
  const now = options.now ?? Date.now;
  const path = options.path ?? join(options.dataDir ?? process.env.MOMO_DATA_DIR ?? './.momo-checkout', 'momo-checkout.sqlite');
  const db = openSqlite(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  prepareFileStoreDatabase(db, path);
  // Checkpoints on a thread of their own (sqlite-checkpointer.ts), once the file is busy: a store
  // that writes little (a test's, a quiet shop's first minutes) never crosses `wal_autocheckpoint`
  // and needs no thread. A file kept out of WAL mode, or a runtime without worker threads,
  // checkpoints in its commits as SQLite does by itself; so does a store whose worker stopped (its
  // connection refused): nothing to tell, the store works as it did before it.
  let checkpointer: Checkpointer | null = null;
  let checkpointsDecided = !inWalMode(db);
  let writesCommitted = 0;
  const afterCommit = (writes: number) => {
    if (checkpointsDecided || (writesCommitted += writes) < startCheckpointerAfterWrites) return;
    checkpointsDecided = true;
    checkpointer = startCheckpointer(path, { nativeBinding: options.nativeBinding, onStopped: () => undefined });
  };

  const statements = prepareStatements(db);
  const listStatement = createListStatements(db);
  const transactions = prepareTransactions(db, statements);
  const batch = createWriteBatch(db, { afterCommit });
  /** One inbox entry, in its turn's batch: false for a duplicate (see `CheckoutStore.addToInbox`). */
  const addToInbox = (entry: InboxEntry, ttlMs: number) => {
    const at = now();
    const existing = statements.inboxEntry.get(entry.id);
    if (existing && (existing.done === 0 || existing.until > at)) return false;
    statements.addToInbox.run(entry.id, entry.rawBody, entry.receivedAt, at + ttlMs);
    return true;
  };
  const links = createSqliteLinks(db, now);
  /** The registry, then its owner's live row, in one read transaction: one snapshot, as a join would read. */
  const recordByServiceOrderId = db.transaction((serviceOrderId: string, at: number) => {
    const owner = statements.registeredOwner.get(serviceOrderId);
    return owner && statements.liveRecord.get(owner.order_id, at);
  });

  // Expired rows are deleted on writes, at most once a minute, instead of by a timer that would
  // keep the process alive. Reads filter on retain_until themselves, so a late sweep is never wrong.
  let lastSweep = 0;
  const sweep = () => {
    const at = now();
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    transactions.sweep.immediate(at);
    links.sweep(at);
  };

  return {
    kind: 'file',
    // No pool to wait for, and one turn's writes share a commit: the more at once, the fewer commits.
    writersAtOnce: 256,
    // Every process on this file counts against one limit (sqlite-limits.ts).
    limits: createSqliteLimits(db, now),
    links,
    async createIfAbsent(record) {
      sweep();
      // A better-sqlite3 transaction function: in the batch, a savepoint of its own.
      return batch.run(() => transactions.createIfAbsent(record, now()));
    },
    async getByOrderId(orderId) {
      const row = statements.liveRecord.get(orderId, now());
      return row && parseRecord(row.record);
    },
    async getByTokenHash(tokenHash) {
      const row = statements.byTokenHash.get(tokenHash, now());
      return row && parseRecord(row.record);
    },
    async getByReturnId(returnId) {
      const row = statements.byReturnId.get(returnId, now());
      return row && parseRecord(row.record);
    },
    async getByServiceOrderId(serviceOrderId) {
      const row = recordByServiceOrderId(serviceOrderId, now());
      return row && parseRecord(row.record);
    },
    async compareAndSet(orderId, expectedRevision, next) {
      if (next.orderId !== orderId) throw new TypeError(`compareAndSet(${orderId}) was given the record of order ${next.orderId}`);
      sweep();
      // Durably when it registers a new attempt's or refund's service order id (sqlite-transactions.ts).
      return batch.run((context) => transactions.compareAndSet(context, orderId, expectedRevision, next, now()));
    },
    async claimLock(key, owner, ttlMs) {
      return batch.run(() => transactions.claimLock(key, owner, ttlMs, now()));
    },
    async endConsoleSession(sessionId, expiresAt) {
      // A row of the locks table, held until the session's expiry by an owner no process is
      // (the table is a key with an owner and an end, swept when the end passes): a signed-out
      // session needs nothing else, and the file's schema, which older versions read, stays as is.
      statements.setLock.run(`${endedSessionKey}${sessionId}`, endedSessionOwner, expiresAt);
    },
    async isConsoleSessionEnded(sessionId) {
      return (statements.lock.get(`${endedSessionKey}${sessionId}`)?.until ?? 0) > now();
    },
    async releaseLock(key, owner) {
      await batch.run(() => statements.releaseLock.run(key, owner));
    },
    async renewLock(key, owner, ttlMs) {
      const at = now();
      return statements.renewLock.run(at + ttlMs, key, owner, at).changes === 1;
    },
    addToInbox(entry, ttlMs) {
      sweep();
      // Group-committed and fsynced before it resolves (sqlite-write-batch.ts).
      return batch.run(() => addToInbox(entry, ttlMs), { fsynced: true });
    },
    async pendingInbox(limit) {
      return statements.pendingInbox.all(limit).map((row) => ({ id: row.id, rawBody: row.raw_body, receivedAt: row.received_at }));
    },
    async markInboxDone(id) {
      await batch.run(() => statements.markInboxDone.run(id));
    },
    async dueDeliveries(at, limit) {
      return statements.dueDeliveries.all(at, now(), limit).map((row) => row.order_id);
    },
    async listPayments(query: PaymentQuery) {
      const limit = query.limit ?? defaultPaymentListLimit;
      if (limit <= 0 || query.states?.length === 0) return [];
      const params: Array<string | number> = [...(query.states ?? [])];
      if (query.updatedBefore !== undefined) params.push(query.updatedBefore);
      if (query.updatedAfter !== undefined) params.push(query.updatedAfter);
      params.push(now(), limit);
      const statement = listStatement(query.states ? query.states.length : null, query.updatedBefore !== undefined, query.updatedAfter !== undefined, query.newestFirst === true);
      const rows = statement.all(...params);
      return rows.map((row) => parseRecord(row.record));
    },
    async listPaymentsCreated(page) {
      // Without a cursor, one just before the window: every row of it is after (from - 1, '').
      const after = page.after ?? { createdAt: page.from - 1, orderId: '' };
      return statements.paymentsCreated.all(page.from, page.to, after.createdAt, after.orderId, now(), page.limit).map((row) => parseRecord(row.record));
    },
    async listNeedingSupport() {
      return statements.needingSupport.all(now()).map((row) => parseRecord(row.record));
    },
    async countPayments(from, to) {
      return statements.countPayments.all(from, to, now());
    },
    async ping() {
      statements.ping.get();
    },
    async probeWrite() {
      transactions.probeWrite.immediate();
    },
    async close() {
      // The checkpoint worker first (and none started by the last commits): the main connection,
      // closed last, is the one whose close checkpoints the rest and removes the WAL.
      checkpointsDecided = true;
      await (checkpointer as Checkpointer | null)?.close();
      // Writes still waiting for their group commit (inbox entries among them) go in first.
      if (db.open && batch.waiting > 0) batch.flush();
      // And what waits for its fsync is answered before the file closes.
      if (db.open) await batch.flushed().catch(() => undefined);
      if (db.open) db.close();
    },
  };
}
