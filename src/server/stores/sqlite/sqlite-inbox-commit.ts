/**
 * The file store's group commit of inbox writes: a kept notification is fsynced before the
 * companion answers the service `200` (the service sends it once), and an fsync costs milliseconds
 * during which better-sqlite3 blocks the event loop. So the entries that arrive in the same turn of
 * the event loop are inserted in one transaction and share one fsync (bench/stores.ts and
 * bench/companion.ts have the figures); each caller's promise settles after that commit, with
 * whether its entry was new, or with the commit's error.
 */
import type { InboxEntry } from '../../model/records.js';
import { durably } from './sqlite-fsync.js';
import type { SqliteDatabase } from './sqlite-open.js';
import type { FileStoreStatements } from './sqlite-statements.js';

export interface InboxGroupCommit {
  /** Queues one entry for the next group commit; resolves false for a duplicate (see `CheckoutStore.addToInbox`). */
  add(entry: InboxEntry, ttlMs: number): Promise<boolean>;
  /** Commits what is queued now (at close: inbox writes still waiting go in first). */
  flush(): void;
  /** How many entries wait for their commit. */
  readonly waiting: number;
}

interface QueuedEntry {
  entry: InboxEntry;
  ttlMs: number;
  resolve: (added: boolean) => void;
  reject: (error: unknown) => void;
}

export function createInboxGroupCommit(db: SqliteDatabase, statements: FileStoreStatements, now: () => number): InboxGroupCommit {
  const addBatch = db.transaction((batch: ReadonlyArray<{ entry: InboxEntry; ttlMs: number }>, at: number) =>
    batch.map(({ entry, ttlMs }) => {
      const existing = statements.inboxEntry.get(entry.id);
      if (existing && (existing.done === 0 || existing.until > at)) return false;
      statements.addToInbox.run(entry.id, entry.rawBody, entry.receivedAt, at + ttlMs);
      return true;
    }),
  );
  let queue: QueuedEntry[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    try {
      const added = durably(db, () => addBatch.immediate(batch, now()));
      batch.forEach((item, index) => item.resolve(added[index]!));
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };
  return {
    add(entry, ttlMs) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ entry, ttlMs, resolve, reject });
        // The first entry of a turn schedules the commit; the rest of the turn joins it.
        if (queue.length === 1) setImmediate(flush);
      });
    },
    flush,
    get waiting() {
      return queue.length;
    },
  };
}
