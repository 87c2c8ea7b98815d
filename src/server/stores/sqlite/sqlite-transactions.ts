/**
 * The file store's writes that read, decide and write: each is one better-sqlite3 transaction, run
 * by the store with `.immediate()` (`BEGIN IMMEDIATE`: SQLite's write lock first), so another
 * process's write cannot come between the read and the write. The registry of service order ids
 * (`service_order_ids`) is checked and written here, in the same transaction as the record.
 * Apart from the store so that each atomic step reads whole; the store decides which of them are
 * also fsynced (sqlite-fsync.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { serviceOrderIdsOf, type CheckoutRecord } from '../../model/records.js';
import { serviceOrderIdTaken } from '../store.js';
import type { SqliteDatabase } from './sqlite-open.js';
import { parseRecord, recordColumns, type FileStoreStatements } from './sqlite-statements.js';

export interface FileStoreTransactions {
  createIfAbsent: BetterSqlite3.Transaction<(record: CheckoutRecord, at: number) => { created: boolean; record: CheckoutRecord }>;
  compareAndSet: BetterSqlite3.Transaction<(orderId: string, expectedRevision: number, next: CheckoutRecord, at: number) => boolean>;
  claimLock: BetterSqlite3.Transaction<(key: string, owner: string, ttlMs: number, at: number) => boolean>;
  probeWrite: BetterSqlite3.Transaction<() => void>;
  sweep: BetterSqlite3.Transaction<(at: number) => void>;
}

export function prepareTransactions(db: SqliteDatabase, statements: FileStoreStatements): FileStoreTransactions {
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

  return {
    createIfAbsent: db.transaction((record: CheckoutRecord, at: number) => {
      const existing = statements.record.get(record.orderId);
      if (existing && existing.retain_until > at) return { created: false, record: parseRecord(existing.record) };
      // A new order's id must not be another order's attempt id (its own attempt 1 will be sent under it).
      checkServiceOrderId(record.orderId, record.orderId, at);
      for (const serviceOrderId of serviceOrderIdsOf(record)) checkServiceOrderId(record.orderId, serviceOrderId, at);
      // An expired row still on disk: its service order ids go with it (ON DELETE CASCADE).
      if (existing) statements.remove.run(record.orderId);
      const row = recordColumns(record);
      statements.insert.run(row);
      indexServiceOrderIds(record);
      return { created: true, record: parseRecord(row.record) };
    }),
    compareAndSet: db.transaction((orderId: string, expectedRevision: number, next: CheckoutRecord, at: number) => {
      const current = statements.record.get(orderId);
      if (!current || current.retain_until <= at || current.revision !== expectedRevision) return false;
      for (const serviceOrderId of serviceOrderIdsOf(next)) checkServiceOrderId(orderId, serviceOrderId, at);
      statements.update.run(recordColumns(next));
      indexServiceOrderIds(next);
      return true;
    }),
    claimLock: db.transaction((key: string, owner: string, ttlMs: number, at: number) => {
      const held = statements.lock.get(key);
      if (held && held.until > at && held.owner !== owner) return false;
      statements.setLock.run(key, owner, at + ttlMs);
      return true;
    }),
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
