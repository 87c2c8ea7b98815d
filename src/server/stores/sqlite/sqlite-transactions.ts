/**
 * The file store's writes that read, decide and write, run by the store inside its turn's batch
 * (sqlite-write-batch.ts: `BEGIN IMMEDIATE`, SQLite's write lock first), so another process's write
 * cannot come between the read and the write; a step of several writes takes a savepoint of its
 * own, so it is undone whole if one fails. The registry of service order ids (`service_order_ids`)
 * is checked and written here, in the same transaction as the record. Apart from the store so that
 * each atomic step reads whole; a compare-and-set that registers a new id asks for the fsync
 * (sqlite-fsync.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { serviceOrderIdsOf, type CheckoutRecord } from '../../model/records.js';
import { serviceOrderIdTaken } from '../store.js';
import type { SqliteDatabase } from './sqlite-open.js';
import { parseRecord, recordColumns, updateStatements, type FileStoreStatements } from './sqlite-statements.js';
import type { BatchedWriteContext } from './sqlite-write-batch.js';

export interface FileStoreTransactions {
  createIfAbsent: BetterSqlite3.Transaction<(record: CheckoutRecord, at: number) => { created: boolean; record: CheckoutRecord }>;
  /**
   * Run in the group commit (sqlite-write-batch.ts), which holds the write lock: reads, then one
   * write, or several in a savepoint when a new service order id is registered, which also must
   * reach the disk (`needsDisk`).
   */
  compareAndSet: (context: BatchedWriteContext, orderId: string, expectedRevision: number, next: CheckoutRecord, at: number) => boolean;
  /** Run in the group commit: a read, then one write. */
  claimLock: (key: string, owner: string, ttlMs: number, at: number) => boolean;
  probeWrite: BetterSqlite3.Transaction<() => void>;
  sweep: BetterSqlite3.Transaction<(at: number) => void>;
}

export function prepareTransactions(db: SqliteDatabase, statements: FileStoreStatements): FileStoreTransactions {
  /**
   * Throws unless `serviceOrderId` is free for `orderId`: no other live order's attempt id, nor
   * another live checkout's id. Returns whether it is already `orderId`'s (registered: nothing to write).
   */
  const checkServiceOrderId = (orderId: string, serviceOrderId: string | undefined, at: number, ownRowIsLive = false): boolean => {
    if (serviceOrderId === undefined) return true;
    const registered = statements.registeredOwner.get(serviceOrderId)?.order_id;
    // A compare-and-set's own row is live: an id the registry gives to it is its own without
    // reading that row again (the usual case, a transition of an attempt already registered).
    if (ownRowIsLive && registered === orderId) return true;
    // An expired owner's row stays on disk until the sweep frees its ids.
    const owner = registered !== undefined && statements.liveOrder.get(registered, at) ? registered : undefined;
    if (owner === orderId) return true;
    if (owner !== undefined) throw serviceOrderIdTaken(serviceOrderId, owner);
    if (serviceOrderId !== orderId && statements.liveOrder.get(serviceOrderId, at)) throw serviceOrderIdTaken(serviceOrderId, serviceOrderId);
    return false;
  };
  /**
   * Checks each of the record's service order ids (throws on a taken one); returns those not yet
   * registered to it. `ownRowIsLive` for a compare-and-set's record; not for a creation, where an
   * expired row's ids go with it.
   */
  const unregisteredServiceOrderIds = (record: CheckoutRecord, at: number, ownRowIsLive = false) =>
    serviceOrderIdsOf(record).filter((serviceOrderId) => !checkServiceOrderId(record.orderId, serviceOrderId, at, ownRowIsLive));
  const updateFor = updateStatements(db);
  const register = (orderId: string, serviceOrderIds: readonly string[]) => {
    for (const serviceOrderId of serviceOrderIds) statements.indexServiceOrderId.run(serviceOrderId, orderId);
  };

  return {
    createIfAbsent: db.transaction((record: CheckoutRecord, at: number) => {
      const existing = statements.record.get(record.orderId);
      if (existing && existing.retain_until > at) return { created: false, record: parseRecord(existing.record) };
      // A new order's id must not be another order's attempt id (its own attempt 1 will be sent under it).
      checkServiceOrderId(record.orderId, record.orderId, at);
      const unregistered = unregisteredServiceOrderIds(record, at);
      // An expired row still on disk: its service order ids go with it (ON DELETE CASCADE).
      if (existing) statements.remove.run(record.orderId);
      const row = recordColumns(record);
      statements.insert.run(row);
      register(record.orderId, unregistered);
      return { created: true, record: parseRecord(row.record) };
    }),
    compareAndSet: (context, orderId, expectedRevision, next, at) => {
      // The row's columns, not its record: the check needs the revision alone.
      const current = statements.head.get(orderId);
      if (!current || current.retain_until <= at || current.revision !== expectedRevision) return false;
      // Checked before the write (a taken id refuses it whole); an id already this order's is not written again.
      const unregistered = unregisteredServiceOrderIds(next, at, true);
      const columns = recordColumns(next);
      const update = updateFor(current, columns);
      if (unregistered.length === 0) {
        update.run(columns);
        return true;
      }
      // A new attempt's or refund's service order id: written before it is posted, so durably.
      context.needsDisk();
      context.inSavepoint(() => {
        update.run(columns);
        register(orderId, unregistered);
      });
      return true;
    },
    claimLock: (key, owner, ttlMs, at) => {
      const held = statements.lock.get(key);
      if (held && held.until > at && held.owner !== owner) return false;
      statements.setLock.run(key, owner, at + ttlMs);
      return true;
    },
    // A write committed and undone in one transaction: its commit still reaches the WAL, which is
    // what a full disk or a lock held elsewhere refuses.
    probeWrite: db.transaction(() => {
      statements.setLock.run('probe:write', 'probe', 0);
      statements.releaseLock.run('probe:write', 'probe');
    }),
    sweep: db.transaction((at: number) => {
      statements.sweepCheckouts.run(at);
      statements.sweepLocks.run(at);
      statements.sweepInbox.run(at);
    }),
  };
}
