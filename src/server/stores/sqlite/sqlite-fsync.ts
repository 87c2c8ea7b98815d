/**
 * The file store's one way to make a write reach the disk itself (fsync: survives a power cut or a
 * kernel crash, not only `kill -9`). The group commit (sqlite-write-batch.ts) takes it for a batch
 * that holds one of the two kinds of write nothing could rebuild (the rule is in sqlite-store.ts's
 * header): an inbox entry, and the first write of a service order id (the store's `compareAndSet`).
 */
import type { SqliteDatabase } from './sqlite-open.js';

/**
 * Runs one write with an fsync of the WAL at its commit: `synchronous = FULL` for that commit
 * alone, then back to NORMAL (set at open, sqlite-schema.ts). better-sqlite3 is synchronous, so no
 * other write of this connection can commit in between.
 */
export function durably<T>(db: SqliteDatabase, write: () => T): T {
  db.pragma('synchronous = FULL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}
