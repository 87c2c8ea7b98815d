/**
 * The file store's group commit: every write asked for in one turn of the event loop (inbox entries,
 * compare-and-sets, locks taken and released, done marks) runs in one transaction with one commit,
 * and each caller's promise settles after that commit.
 *
 * Why: the commits were the file store's cost (issue 43's profile: a notification's five commits
 * and the inbox's were more than half of the server's main-thread time), each a WAL write by a
 * synchronous call that holds the event loop, each `BEGIN IMMEDIATE` a lock taken. Under load, the
 * notifications in flight are at different steps of their walk, so one turn's transaction carries
 * all their steps.
 *
 * Each write runs in a savepoint of its own: one that throws (a taken service order id, a full
 * disk on its statement) is undone alone and rejects alone; the others commit. A failed commit
 * rejects every write of the batch: none of them is kept, and each caller says so (an inbox entry
 * not kept is answered `503`).
 *
 * Durability (sqlite-fsync.ts): a batch holding a write that must reach the disk itself (an inbox
 * entry, a new service order id) is committed with an fsync, which also makes the rest of the batch
 * durable; a batch without one reaches the operating system only (it survives `kill -9`).
 */
import { durably } from './sqlite-fsync.js';
import type { SqliteDatabase } from './sqlite-open.js';

export interface WriteBatch {
  /**
   * Queues `write` (synchronous SQL, run inside the batch's transaction) for this turn's commit;
   * resolves with what it returned once committed, or rejects with what it threw or the commit's error.
   * `fsynced`: the commit must reach the disk before this write resolves.
   */
  run<T>(write: () => T, fsynced?: boolean): Promise<T>;
  /** Commits what is queued now (at close: writes still waiting go in first). */
  flush(): void;
  /** How many writes wait for their commit. */
  readonly waiting: number;
}

interface QueuedWrite {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createWriteBatch(db: SqliteDatabase): WriteBatch {
  // Nested in the batch's transaction, a better-sqlite3 transaction function is a savepoint.
  const inSavepoint = db.transaction((write: () => unknown) => write());
  const commitAll = db.transaction((writes: readonly QueuedWrite[]): Outcome[] =>
    writes.map((item) => {
      try {
        return { ok: true, value: inSavepoint(item.write) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  let queue: QueuedWrite[] = [];
  let fsyncQueued = false;
  const flush = () => {
    const batch = queue;
    const fsync = fsyncQueued;
    queue = [];
    fsyncQueued = false;
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = fsync ? durably(db, () => commitAll.immediate(batch)) : commitAll.immediate(batch);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => (outcome.ok ? batch[index]!.resolve(outcome.value) : batch[index]!.reject(outcome.error)));
  };
  return {
    run<T>(write: () => T, fsynced = false) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
        fsyncQueued ||= fsynced;
        // The first write of a turn schedules the commit; the rest of the turn joins it.
        if (queue.length === 1) setImmediate(flush);
      });
    },
    flush,
    get waiting() {
      return queue.length;
    },
  };
}
