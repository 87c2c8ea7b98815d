/**
 * The file store's checkpoints off the event loop (issue 43). A checkpoint copies the WAL's pages
 * into the database file and fsyncs it; SQLite runs one inside the commit that crosses
 * `wal_autocheckpoint`, so on the companion's one JavaScript thread, which answered nothing for
 * its length: about 40 ms every 40 MB of WAL on the test machine (every 4,000 notifications or so
 * at a busy shop: a pause about once a second in a burst, which set the file store's p99).
 *
 * Here a worker thread holds a connection of its own to the same file and runs a PASSIVE
 * checkpoint every {@link checkpointEveryMs}: it copies what is committed without waiting for
 * the writer or holding it up (WAL mode lets them run side by side), and its fsync of the database
 * file blocks only that thread. The main connection keeps `wal_autocheckpoint`: what is left when
 * it is crossed (the pages written since the worker's last pass) is small, and if the worker
 * cannot run (no worker threads in this runtime, its connection refused) the store checkpoints as
 * before. A checkpoint moves nothing durable: a commit is in the WAL before it returns, and a
 * checkpoint stopped midway (a crash) is done again from the WAL at the next open.
 *
 * The worker's code is a string evaluated by Node (plain CommonJS, better-sqlite3 loaded from the
 * path this module resolved): it has no file of its own, so neither the build nor a bundler has
 * to place one beside this module.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Writes committed before a store starts its worker: about 150 notifications' worth, far below
 * the 10,000 pages of WAL (about 4,000 notifications) at which the main connection checkpoints.
 */
export const startCheckpointerAfterWrites = 1_000;

/** How often the worker copies the WAL into the database: about 4 MB of WAL at 40 MB/s of writes. */
export const checkpointEveryMs = 100;

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
(function run() {
  let db;
  try {
    db = new Database(workerData.path, { fileMustExist: true, timeout: 1000, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
  } catch (error) {
    parentPort.postMessage({ stopped: String(error && error.message) });
    parentPort.close();
    return;
  }
  let passes = 0;
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
      passes++;
    } catch (error) {
      // Busy (another connection checkpoints) is the next pass's; anything else stops this worker
      // and leaves the checkpoints to the main connection.
      if (error && error.code === 'SQLITE_BUSY') return;
      clearInterval(timer);
      try { db.close(); } catch {}
      parentPort.postMessage({ stopped: String(error && error.message) });
      parentPort.close();
    }
  }, workerData.everyMs);
  parentPort.on('message', (message) => {
    if (message === 'passes') parentPort.postMessage({ passes });
    if (message !== 'close') return;
    clearInterval(timer);
    try { if (db.open) db.close(); } catch {}
    parentPort.close();
  });
})();
`;

export interface Checkpointer {
  /** How many passes the worker has made (tests). */
  passes(): Promise<number>;
  /** Stops the worker and closes its connection; the main connection checkpoints from then on. */
  close(): Promise<void>;
}

/**
 * Starts the checkpoint worker for the database at `path` (in WAL mode); null where worker threads
 * cannot start, and the main connection's `wal_autocheckpoint` does the work. `onStopped` hears
 * why a worker stopped by itself.
 */
export function startCheckpointer(path: string, options: { nativeBinding?: string | undefined; onStopped: (reason: string) => void }): Checkpointer | null {
  let worker: Worker;
  try {
    worker = new Worker(workerSource, {
      eval: true,
      workerData: { path, betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3'), nativeBinding: options.nativeBinding, everyMs: checkpointEveryMs },
      // The store's own thread needs none of the loaders this process was started with.
      execArgv: [],
    });
  } catch {
    return null;
  }
  let stopped = false;
  const asked: Array<(passes: number) => void> = [];
  worker.on('message', (message: { stopped?: string; passes?: number }) => {
    if (message.stopped !== undefined) {
      stopped = true;
      options.onStopped(message.stopped);
    }
    if (message.passes !== undefined) asked.shift()?.(message.passes);
  });
  worker.on('error', (error) => {
    stopped = true;
    options.onStopped(error.message);
  });
  // Never what keeps the process alive: the store's close stops it, an exit ends it. After the
  // listeners, which would hold the worker's port again.
  worker.unref();
  return {
    passes: () =>
      new Promise((resolve) => {
        if (stopped) return resolve(0);
        asked.push(resolve);
        worker.postMessage('passes');
      }),
    async close() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('close');
      // A worker busy in a long checkpoint finishes it first; one that does not answer is ended.
      const timeout = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
