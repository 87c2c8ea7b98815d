/**
 * The file store's writes that read, decide and write: each is one better-sqlite3 transaction, run
 * by the store inside its turn's batch (sqlite-write-batch.ts: `BEGIN IMMEDIATE`, SQLite's write
 * lock first, and each of these a savepoint within it), so another process's write cannot come
 * between the read and the write. The registry of service order ids
 * (`service_order_ids`) is checked and written here, in the same transaction as the record.
 * Apart from the store so that each atomic step reads whole; the store decides which of them are
 * also fsynced (sqlite-fsync.ts).
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
  const checkServiceOrderId = (orderId: string, serviceOrderId: string | undefined, at: number): boolean => {
    if (serviceOrderId === undefined) return true;
    const registered = statements.registeredOwner.get(serviceOrderId)?.order_id;
    // An expired owner's row still on disk until the sweep frees its ids.
    const owner = registered !== undefined && statements.liveOrder.get(registered, at) ? registered : undefined;
    if (owner === orderId) return true;
    if (owner !== undefined) throw serviceOrderIdTaken(serviceOrderId, owner);
    if (serviceOrderId !== orderId && statements.liveOrder.get(serviceOrderId, at)) throw serviceOrderIdTaken(serviceOrderId, serviceOrderId);
    return false;
  };
  /** Checks each of the record's service order ids (throws on a taken one); returns those not yet registered to it. */
  const unregisteredServiceOrderIds = (record: CheckoutRecord, at: number) =>
    serviceOrderIdsOf(record).filter((serviceOrderId) => !checkServiceOrderId(record.orderId, serviceOrderId, at));
  /**
   * The same for a record whose row is live (a compare-and-set's): an id the registry gives to this
   * very order is its own without the join that checks the owner's expiry (the usual case, a
   * transition of an attempt already registered). Not for a creation: an expired row's ids go with it.
   */
  const unregisteredOfLiveRow = (record: CheckoutRecord, at: number) =>
    serviceOrderIdsOf(record).filter(
      (serviceOrderId) => statements.registeredOwner.get(serviceOrderId)?.order_id !== record.orderId && !checkServiceOrderId(record.orderId, serviceOrderId, at),
    );
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
      const unregistered = unregisteredOfLiveRow(next, at);
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
