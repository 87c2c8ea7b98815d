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
 * durable. An fsync costs milliseconds and better-sqlite3 blocks the event loop meanwhile, so inbox
 * writes are group-committed: those arriving in the same turn of the event loop share one
 * transaction and one fsync (the figures are in bench/stores.ts and bench/companion.ts).
 */
import { join } from 'node:path';
import { nextDeliveryAt, serviceOrderIdsOf, type CheckoutRecord, type InboxEntry } from '../../model/records.js';
import { FileStoreUnavailableError, openSqlite, type SqliteDatabase } from './sqlite-open.js';
import { serviceOrderIdTaken, type CheckoutStore, type PaymentQuery } from '../store.js';
import { createSqliteLimits } from './sqlite-limits.js';

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

const SCHEMA_VERSION = 1;
/** A signed-out console session's row in `locks` (no lock name the companion takes starts so). */
const endedSessionKey = 'console-session-ended:';
const endedSessionOwner = 'signed-out';
const SWEEP_EVERY_MS = 60_000;

const schema = `
CREATE TABLE checkouts (
  order_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  token_hash TEXT NOT NULL,
  return_id TEXT NOT NULL,
  retain_until INTEGER NOT NULL,
  next_delivery_at INTEGER,        -- nextDeliveryAt(record): null when nothing is to be delivered
  payment_state TEXT,              -- null until the checkout has a payment
  payment_updated_at INTEGER,
  record TEXT NOT NULL             -- the CheckoutRecord as JSON
) STRICT;
-- Not UNIQUE: an expired row may still hold a value until the sweep; reads filter on retain_until.
CREATE INDEX checkouts_token_hash ON checkouts (token_hash);
CREATE INDEX checkouts_return_id ON checkouts (return_id);
CREATE INDEX checkouts_retain_until ON checkouts (retain_until);
CREATE INDEX checkouts_next_delivery_at ON checkouts (next_delivery_at) WHERE next_delivery_at IS NOT NULL;
CREATE INDEX checkouts_payment_updated_at ON checkouts (payment_updated_at) WHERE payment_state IS NOT NULL;
CREATE INDEX checkouts_payment_state ON checkouts (payment_state, payment_updated_at) WHERE payment_state IS NOT NULL;

-- Every attempt's service order id, owned by its order for the order's lifetime.
CREATE TABLE service_order_ids (
  service_order_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES checkouts (order_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX service_order_ids_order_id ON service_order_ids (order_id);

CREATE TABLE locks (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  until INTEGER NOT NULL
) STRICT;

CREATE TABLE inbox (
  id TEXT PRIMARY KEY,
  raw_body TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  done INTEGER NOT NULL,
  until INTEGER NOT NULL
) STRICT;
CREATE INDEX inbox_pending ON inbox (received_at) WHERE done = 0;
`;

function migrate(db: SqliteDatabase, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  if (version > SCHEMA_VERSION) {
    throw new FileStoreUnavailableError(
      `The file store at ${path} was written by a newer momo-checkout (schema ${version}, this one knows ${SCHEMA_VERSION}): upgrade momo-checkout, or set MOMO_DATA_DIR to another folder.`,
    );
  }
  db.transaction(() => {
    // Read again under the write lock: another process opening the same file may have just done it.
    if (db.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return;
    db.exec(schema);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

interface RecordRow {
  record: string;
  retain_until: number;
  revision: number;
}

/**
 * @example
 * const momo = createCompanion({ ...options, store: createFileStore({ dataDir: '/var/lib/shop' }) });
 */
export function createFileStore(options: FileStoreOptions = {}): CheckoutStore {
  const now = options.now ?? Date.now;
  const path = options.path ?? join(options.dataDir ?? process.env.MOMO_DATA_DIR ?? './.momo-checkout', 'momo-checkout.sqlite');
  const db = openSqlite(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoints (copying the WAL into the database, with an fsync) every ~40 MB rather than 4 MB:
    // on the webhook's hot path they were a third of the write time.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof FileStoreUnavailableError) throw error;
    throw new FileStoreUnavailableError(
      `Cannot use ${path} as the file store (${error instanceof Error ? error.message : String(error)}): is it a momo-checkout SQLite file on a local disk? Set MOMO_DATA_DIR to another folder.`,
      { cause: error },
    );
  }

  const statements = {
    record: db.prepare<[string], RecordRow>('SELECT record, retain_until, revision FROM checkouts WHERE order_id = ?'),
    liveRecord: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE order_id = ? AND retain_until > ?'),
    byTokenHash: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE token_hash = ? AND retain_until > ?'),
    byReturnId: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE return_id = ? AND retain_until > ?'),
    byServiceOrderId: db.prepare<[string, number], { record: string; order_id: string }>(
      'SELECT c.record, c.order_id FROM service_order_ids s JOIN checkouts c ON c.order_id = s.order_id WHERE s.service_order_id = ? AND c.retain_until > ?',
    ),
    remove: db.prepare<[string]>('DELETE FROM checkouts WHERE order_id = ?'),
    insert: db.prepare(
      `INSERT INTO checkouts (order_id, revision, token_hash, return_id, retain_until, next_delivery_at, payment_state, payment_updated_at, record)
       VALUES (@orderId, @revision, @tokenHash, @returnId, @retainUntil, @nextDeliveryAt, @paymentState, @paymentUpdatedAt, @record)`,
    ),
    update: db.prepare(
      `UPDATE checkouts SET revision = @revision, token_hash = @tokenHash, return_id = @returnId, retain_until = @retainUntil,
       next_delivery_at = @nextDeliveryAt, payment_state = @paymentState, payment_updated_at = @paymentUpdatedAt, record = @record
       WHERE order_id = @orderId`,
    ),
    indexServiceOrderId: db.prepare<[string, string]>(
      'INSERT INTO service_order_ids (service_order_id, order_id) VALUES (?, ?) ON CONFLICT (service_order_id) DO UPDATE SET order_id = excluded.order_id',
    ),
    lock: db.prepare<[string], { owner: string; until: number }>('SELECT owner, until FROM locks WHERE key = ?'),
    setLock: db.prepare<[string, string, number]>('INSERT OR REPLACE INTO locks (key, owner, until) VALUES (?, ?, ?)'),
    releaseLock: db.prepare<[string, string]>('DELETE FROM locks WHERE key = ? AND owner = ?'),
    inboxEntry: db.prepare<[string], { done: number; until: number }>('SELECT done, until FROM inbox WHERE id = ?'),
    addToInbox: db.prepare<[string, string, number, number]>('INSERT OR REPLACE INTO inbox (id, raw_body, received_at, done, until) VALUES (?, ?, ?, 0, ?)'),
    pendingInbox: db.prepare<[number], { id: string; raw_body: string; received_at: number }>(
      'SELECT id, raw_body, received_at FROM inbox WHERE done = 0 ORDER BY received_at, rowid LIMIT ?',
    ),
    // A done entry is only a nonce now: its body is dropped.
    markInboxDone: db.prepare<[string]>("UPDATE inbox SET done = 1, raw_body = '' WHERE id = ?"),
    dueDeliveries: db.prepare<[number, number, number], { order_id: string }>(
      'SELECT order_id FROM checkouts WHERE next_delivery_at <= ? AND retain_until > ? ORDER BY next_delivery_at, rowid LIMIT ?',
    ),
    sweepCheckouts: db.prepare<[number]>('DELETE FROM checkouts WHERE retain_until <= ?'),
    sweepLocks: db.prepare<[number]>('DELETE FROM locks WHERE until <= ?'),
    sweepInbox: db.prepare<[number]>('DELETE FROM inbox WHERE done = 1 AND until <= ?'),
    ping: db.prepare('SELECT 1'),
  };

  // Statements for listPayments, one per shape of query (how many states, which dates, which order).
  const listStatements = new Map<string, ReturnType<typeof db.prepare<unknown[], { record: string }>>>();
  const listStatement = (stateCount: number | null, before: boolean, after: boolean, newestFirst: boolean) => {
    const shape = `${stateCount}:${before}:${after}:${newestFirst}`;
    let statement = listStatements.get(shape);
    if (!statement) {
      const states = stateCount === null ? '' : ` AND payment_state IN (${Array(stateCount).fill('?').join(', ')})`;
      const dates = `${before ? ' AND payment_updated_at <= ?' : ''}${after ? ' AND payment_updated_at >= ?' : ''}`;
      const order = newestFirst ? 'payment_updated_at DESC, rowid DESC' : 'payment_updated_at, rowid';
      statement = db.prepare<unknown[], { record: string }>(
        `SELECT record FROM checkouts WHERE payment_state IS NOT NULL${states}${dates} AND retain_until > ? ORDER BY ${order} LIMIT ?`,
      );
      listStatements.set(shape, statement);
    }
    return statement;
  };

  const parse = (json: string) => JSON.parse(json) as CheckoutRecord;
  const columns = (record: CheckoutRecord) => ({
    orderId: record.orderId,
    revision: record.revision,
    tokenHash: record.tokenHash,
    returnId: record.returnId,
    retainUntil: record.retainUntil,
    nextDeliveryAt: nextDeliveryAt(record),
    paymentState: record.payment?.state ?? null,
    paymentUpdatedAt: record.payment?.updatedAt ?? null,
    record: JSON.stringify(record),
  });
  /** Throws unless `serviceOrderId` is free for `orderId`: no other live order's attempt id, nor another live checkout's id. */
  const checkServiceOrderId = (orderId: string, serviceOrderId: string | undefined, at: number) => {
    if (serviceOrderId === undefined) return;
    const owner = statements.byServiceOrderId.get(serviceOrderId, at)?.order_id;
    if (owner !== undefined && owner !== orderId) throw serviceOrderIdTaken(serviceOrderId, owner);
    if (serviceOrderId !== orderId && statements.liveRecord.get(serviceOrderId, at)) throw serviceOrderIdTaken(serviceOrderId, serviceOrderId);
  };
  const indexServiceOrderIds = (record: CheckoutRecord) => {
    for (const serviceOrderId of serviceOrderIdsOf(record)) statements.indexServiceOrderId.run(serviceOrderId, record.orderId);
  };

  const createIfAbsent = db.transaction((record: CheckoutRecord, at: number) => {
    const existing = statements.record.get(record.orderId);
    if (existing && existing.retain_until > at) return { created: false, record: parse(existing.record) };
    // A new order's id must not be another order's attempt id (its own attempt 1 will be sent under it).
    checkServiceOrderId(record.orderId, record.orderId, at);
    for (const serviceOrderId of serviceOrderIdsOf(record)) checkServiceOrderId(record.orderId, serviceOrderId, at);
    // An expired row still on disk: its service order ids go with it (ON DELETE CASCADE).
    if (existing) statements.remove.run(record.orderId);
    const row = columns(record);
    statements.insert.run(row);
    indexServiceOrderIds(record);
    return { created: true, record: parse(row.record) };
  });
  const compareAndSet = db.transaction((orderId: string, expectedRevision: number, next: CheckoutRecord, at: number) => {
    const current = statements.record.get(orderId);
    if (!current || current.retain_until <= at || current.revision !== expectedRevision) return false;
    for (const serviceOrderId of serviceOrderIdsOf(next)) checkServiceOrderId(orderId, serviceOrderId, at);
    statements.update.run(columns(next));
    indexServiceOrderIds(next);
    return true;
  });
  const claimLock = db.transaction((key: string, owner: string, ttlMs: number, at: number) => {
    const held = statements.lock.get(key);
    if (held && held.until > at && held.owner !== owner) return false;
    statements.setLock.run(key, owner, at + ttlMs);
    return true;
  });
  const addToInboxBatch = db.transaction((batch: ReadonlyArray<{ entry: InboxEntry; ttlMs: number }>, at: number) =>
    batch.map(({ entry, ttlMs }) => {
      const existing = statements.inboxEntry.get(entry.id);
      if (existing && (existing.done === 0 || existing.until > at)) return false;
      statements.addToInbox.run(entry.id, entry.rawBody, entry.receivedAt, at + ttlMs);
      return true;
    }),
  );
  /** Runs one write with an fsync of the WAL at its commit (see the header). */
  const durably = <T>(write: () => T): T => {
    db.pragma('synchronous = FULL');
    try {
      return write();
    } finally {
      db.pragma('synchronous = NORMAL');
    }
  };
  // Group commit of inbox writes (see the header).
  let inboxQueue: Array<{ entry: InboxEntry; ttlMs: number; resolve: (added: boolean) => void; reject: (error: unknown) => void }> = [];
  const flushInbox = () => {
    const batch = inboxQueue;
    inboxQueue = [];
    try {
      const added = durably(() => addToInboxBatch.immediate(batch, now()));
      batch.forEach((item, index) => item.resolve(added[index]!));
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };
  // A write committed and undone in one transaction: its commit still reaches the WAL, which is
  // what a full disk or a lock held elsewhere refuses.
  const probeWrite = db.transaction(() => {
    statements.setLock.run('probe:write', 'probe', 0);
    statements.releaseLock.run('probe:write', 'probe');
  });
  const sweepNow = db.transaction((at: number) => {
    statements.sweepCheckouts.run(at);
    statements.sweepLocks.run(at);
    statements.sweepInbox.run(at);
  });

  // Expired rows are deleted on writes, at most once a minute, instead of by a timer that would
  // keep the process alive. Reads filter on retain_until themselves, so a late sweep is never wrong.
  let lastSweep = 0;
  const sweep = () => {
    const at = now();
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    sweepNow.immediate(at);
  };

  return {
    kind: 'file',
    // Every process on this file counts against one limit (sqlite-limits.ts).
    limits: createSqliteLimits(db, now),
    async createIfAbsent(record) {
      const result = createIfAbsent.immediate(record, now());
      sweep();
      return result;
    },
    async getByOrderId(orderId) {
      const row = statements.liveRecord.get(orderId, now());
      return row && parse(row.record);
    },
    async getByTokenHash(tokenHash) {
      const row = statements.byTokenHash.get(tokenHash, now());
      return row && parse(row.record);
    },
    async getByReturnId(returnId) {
      const row = statements.byReturnId.get(returnId, now());
      return row && parse(row.record);
    },
    async getByServiceOrderId(serviceOrderId) {
      const row = statements.byServiceOrderId.get(serviceOrderId, now());
      return row && parse(row.record);
    },
    async compareAndSet(orderId, expectedRevision, next) {
      if (next.orderId !== orderId) throw new TypeError(`compareAndSet(${orderId}) was given the record of order ${next.orderId}`);
      // A new attempt's or refund's service order id is written before it is posted: durably.
      const newServiceOrderId = serviceOrderIdsOf(next).some((id) => statements.byServiceOrderId.get(id, now())?.order_id !== orderId);
      const write = () => compareAndSet.immediate(orderId, expectedRevision, next, now());
      const written = newServiceOrderId ? durably(write) : write();
      sweep();
      return written;
    },
    async claimLock(key, owner, ttlMs) {
      return claimLock.immediate(key, owner, ttlMs, now());
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
      statements.releaseLock.run(key, owner);
    },
    addToInbox(entry, ttlMs) {
      sweep();
      return new Promise<boolean>((resolve, reject) => {
        inboxQueue.push({ entry, ttlMs, resolve, reject });
        if (inboxQueue.length === 1) setImmediate(flushInbox);
      });
    },
    async pendingInbox(limit) {
      return statements.pendingInbox.all(limit).map((row) => ({ id: row.id, rawBody: row.raw_body, receivedAt: row.received_at }));
    },
    async markInboxDone(id) {
      statements.markInboxDone.run(id);
    },
    async dueDeliveries(at, limit) {
      return statements.dueDeliveries.all(at, now(), limit).map((row) => row.order_id);
    },
    async listPayments(query: PaymentQuery) {
      const limit = query.limit ?? 100;
      if (limit <= 0 || query.states?.length === 0) return [];
      const params: Array<string | number> = [...(query.states ?? [])];
      if (query.updatedBefore !== undefined) params.push(query.updatedBefore);
      if (query.updatedAfter !== undefined) params.push(query.updatedAfter);
      params.push(now(), limit);
      const statement = listStatement(query.states ? query.states.length : null, query.updatedBefore !== undefined, query.updatedAfter !== undefined, query.newestFirst === true);
      const rows = statement.all(...params);
      return rows.map((row) => parse(row.record));
    },
    async ping() {
      statements.ping.get();
    },
    async probeWrite() {
      probeWrite.immediate();
    },
    async close() {
      // Inbox writes still waiting for their group commit go in first.
      if (db.open && inboxQueue.length > 0) flushInbox();
      if (db.open) db.close();
    },
  };
}
