/**
 * Opens the file store's SQLite database through better-sqlite3 13, loaded only when a file store
 * is asked for: it is a native module, and a machine where it cannot load (an unusual platform, a
 * Node older than 22) must still run a companion on Redis or in memory. Whatever goes wrong becomes
 * one {@link FileStoreUnavailableError} that says what to do.
 *
 * Why better-sqlite3 13 and not Node's built-in `node:sqlite` (docs/durability.md has the figures):
 * both ran the store's benchmarks alike on Node 22 and 24 (fsync-bound), but `node:sqlite` is
 * experimental on Node 22 (a warning at every start, an API that may change) and its SQLite
 * differs by Node release; better-sqlite3 13 is Node-API (no abort on Node 24, unlike 12), ships
 * its binaries for Linux (glibc, musl), macOS and Windows on x64 and arm64 inside the package, and
 * runs no install script, so nothing is compiled or downloaded at install.
 *
 * `createRequire` rather than `import()`: loading stays synchronous, so `createFileStore` does too.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

import { FileStoreUnavailableError } from './file-store-error.js';

export { FileStoreUnavailableError };

export type SqliteDatabase = BetterSqlite3.Database;

/** Whether the database runs in WAL mode (sqlite-schema.ts asks for it; a file system may refuse it). */
export function inWalMode(db: SqliteDatabase): boolean {
  return String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
}

const nativeAdvice =
  'Its binary ships inside the package for Node 22 or newer on Linux, macOS and Windows (x64 and arm64): check `node --version`, ' +
  'then reinstall (delete node_modules and run `npm ci`); if a bundler moved the binary, pass the file store its `nativeBinding`. ' +
  'Or set MOMO_POSTGRES_URL (or MOMO_REDIS_URL) to keep state in PostgreSQL (or Redis); or, for tests only, pass `store: createMemoryStore()` (nothing survives a restart).';

/** The first line: Node's module errors go on with a require stack that helps nobody here. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

export interface OpenSqliteOptions {
  /** better-sqlite3's `nativeBinding`: where `better_sqlite3.node` is when a bundler moved it. */
  nativeBinding?: string;
}

export function openSqlite(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  let Database: typeof BetterSqlite3;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    throw new FileStoreUnavailableError(`The file store needs the better-sqlite3 package, which could not be loaded (${messageOf(error)}). ${nativeAdvice}`, { cause: error });
  }
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new FileStoreUnavailableError(
        `Cannot create the file store's folder ${dirname(path)} (${messageOf(error)}): set MOMO_DATA_DIR to a folder this process may write to.`,
        { cause: error },
      );
    }
  }
  try {
    // busy timeout: another process holding the write lock is waited for, not an error.
    return new Database(path, { timeout: 5_000, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  } catch (error) {
    // better-sqlite3 loads its native addon on the first open: a SqliteError or TypeError comes
    // from opening the file, anything else from loading the addon.
    const fromOpening = error instanceof TypeError || (error instanceof Error && error.name === 'SqliteError');
    if (!fromOpening) {
      throw new FileStoreUnavailableError(`better-sqlite3 is installed but its native module cannot be loaded (${messageOf(error)}). ${nativeAdvice}`, { cause: error });
    }
    throw new FileStoreUnavailableError(
      `Cannot open the file store at ${path} (${messageOf(error)}): check that this process may read and write that file and its folder, or set MOMO_DATA_DIR to another folder.`,
      { cause: error },
    );
  }
}
