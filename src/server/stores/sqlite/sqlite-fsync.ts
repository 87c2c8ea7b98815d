/**
 * The file store's ways to make a write reach the disk itself (fsync: survives a power cut or a
 * kernel crash, not only `kill -9`). The group commit (sqlite-write-batch.ts) takes one for a batch
 * that holds one of the two kinds of write nothing could rebuild (the rule is in sqlite-store.ts's
 * header): an inbox entry, and the first write of a service order id (the store's `compareAndSet`).
 *
 * Two ways, for two paces:
 *
 * - `createWalFlusher`, the webhook's and the pay route's: the batch commits with `synchronous =
 *   NORMAL` (its frames are in the WAL file, in the operating system's cache), then the WAL file is
 *   fsynced on libuv's thread pool, and the batch's durable writes resolve once that fsync is done.
 *   Why not SQLite's own `FULL`: better-sqlite3 is synchronous, so its fsync held the event loop
 *   for the whole disk flush (about 9 ms here, issue 43's profile: a busy webhook route spent most
 *   of its time waiting on it, and answered nothing meanwhile). Off the event loop, the companion
 *   goes on answering and applying while the disk works, and every commit made before an fsync
 *   starts is covered by it: one fsync serves every batch of that time (a group commit of fsyncs).
 *   An fsync of the WAL is what `FULL` does at a commit in WAL mode (Linux flushes a file's pages
 *   whichever descriptor wrote them), and it makes every earlier commit durable too.
 * - `durably`, the rare writes of a payment link (sqlite-links.ts): `synchronous = FULL` for one
 *   commit, on the event loop.
 */
import { open } from 'node:fs/promises';
import { inWalMode, type SqliteDatabase } from './sqlite-open.js';

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

/** Resolves once every commit this connection made before the call is on the disk itself. */
export type WalFlusher = () => Promise<void>;

/**
 * The WAL's fsync off the event loop, shared: a call while an fsync is under way waits for the
 * next one (its commit may have come after the running one began), and every call made during
 * that wait shares it. A database not in WAL mode (a file system that refused it) has no WAL file
 * to flush: its writes are fsynced on the event loop, as `durably` does.
 */
export function createWalFlusher(db: SqliteDatabase): WalFlusher | null {
  if (!inWalMode(db)) return null;
  const walPath = `${db.name}-wal`;
  let running: Promise<void> | null = null;
  let following: Promise<void> | null = null;
  const fsyncWal = async () => {
    // Opened for each fsync rather than held: SQLite may delete and create the WAL file again (the
    // last connection's close), and a held descriptor would then flush a file no one reads.
    // 'r+': Windows flushes only a file opened for writing.
    let file;
    try {
      file = await open(walPath, 'r+');
    } catch (error) {
      // No WAL file: the last connection closed, and its close checkpointed every frame into the
      // database file, fsynced, before deleting it. Nothing is left to flush.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  };
  const start = (): Promise<void> => {
    const fsync = fsyncWal().finally(() => {
      running = null;
    });
    running = fsync;
    return fsync;
  };
  return () => {
    if (!running) return start();
    following ??= running
      .catch(() => undefined)
      .then(() => {
        following = null;
        // One begun meanwhile (by a call after the last one ended) also began after our commits.
        return running ?? start();
      });
    return following;
  };
}
