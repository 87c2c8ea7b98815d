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
 * A write that throws (a taken service order id, a full disk on its statement) is undone alone and
 * rejects alone; the others commit. A write of one statement gets that from SQLite itself (a failed
 * statement changes nothing); a write of several takes a savepoint of its own (`inSavepoint`, or a
 * better-sqlite3 transaction function, which nested is one), which costs two statements more, so
 * the batch gives none by itself. A failed commit rejects every write
 * of the batch: none of them is kept, and each caller says so (an inbox entry not kept is answered
 * `503`).
 *
 * Durability (sqlite-fsync.ts): every commit reaches the operating system before any of its writes
 * resolves (it survives `kill -9`). A write that must reach the disk itself (an inbox entry, a new
 * service order id: it says so when queued, or while it runs through `needsDisk`) resolves only
 * after the WAL's fsync that follows its commit, made off the event loop and shared by every batch
 * committed before it began; the batch's other writes resolve at their commit. Where the database
 * is not in WAL mode, every batch commits with `FULL` instead.
 */
import { durably, createWalFlusher } from './sqlite-fsync.js';
import type { SqliteDatabase } from './sqlite-open.js';

/** What a batched write is handed: `needsDisk()` when what it wrote must reach the disk before it resolves. */
export interface BatchedWriteContext {
  needsDisk(): void;
  /** Runs `writes` in a savepoint: undone together if one of them throws. */
  inSavepoint<T>(writes: () => T): T;
}

export interface WriteBatch {
  /**
   * Queues `write` (synchronous SQL, run inside the batch's transaction) for this turn's commit;
   * resolves with what it returned once committed, or rejects with what it threw or the commit's error.
   * `fsynced`: the commit must reach the disk before this write resolves. A write of more than one
   * statement takes its own savepoint (`context.inSavepoint`).
   */
  run<T>(write: (context: BatchedWriteContext) => T, options?: { fsynced?: boolean }): Promise<T>;
  /** Commits what is queued now (at close: writes still waiting go in first). */
  flush(): void;
  /** Resolves once every commit so far is on the disk itself (at close, before the file is). */
  flushed(): Promise<void>;
  /** How many writes wait for their commit. */
  readonly waiting: number;
}

interface QueuedWrite {
  write: (context: BatchedWriteContext) => unknown;
  fsynced: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface WriteBatchOptions {
  /** Told after each commit how many writes it held (the store starts its checkpoint worker on a busy file). */
  afterCommit?: (writes: number) => void;
}

export function createWriteBatch(db: SqliteDatabase, options: WriteBatchOptions = {}): WriteBatch {
  // Nested in the batch's transaction, a better-sqlite3 transaction function is a savepoint.
  const inSavepoint = db.transaction((writes: () => unknown) => writes()) as <T>(writes: () => T) => T;
  const walFlusher = createWalFlusher(db);
  let batchNeedsDisk = false;
  const commitAll = db.transaction((writes: readonly QueuedWrite[]): Outcome[] =>
    writes.map((item) => {
      const context: BatchedWriteContext = {
        needsDisk: () => {
          item.fsynced = true;
          batchNeedsDisk = true;
        },
        inSavepoint,
      };
      try {
        return { ok: true, value: item.write(context) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  let queue: QueuedWrite[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    batchNeedsDisk = batch.some((item) => item.fsynced);
    let outcomes: Outcome[];
    try {
      outcomes = walFlusher ? commitAll.immediate(batch) : durably(db, () => commitAll.immediate(batch));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    options.afterCommit?.(batch.length);
    const onDisk = batchNeedsDisk && walFlusher ? walFlusher() : null;
    outcomes.forEach((outcome, index) => {
      const item = batch[index]!;
      if (!outcome.ok) item.reject(outcome.error);
      else if (onDisk && item.fsynced) onDisk.then(() => item.resolve(outcome.value), item.reject);
      else item.resolve(outcome.value);
    });
  };
  return {
    run<T>(write: (context: BatchedWriteContext) => T, options: { fsynced?: boolean } = {}) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, fsynced: options.fsynced === true, resolve: resolve as (value: unknown) => void, reject });
        // The first write of a turn schedules the commit; the rest of the turn joins it.
        if (queue.length === 1) setImmediate(flush);
      });
    },
    flush,
    flushed: () => walFlusher?.() ?? Promise.resolve(),
    get waiting() {
      return queue.length;
    },
  };
}
