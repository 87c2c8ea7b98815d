/**
 * A file store in a fresh folder, and a second SQLite connection to its file, as another process
 * would hold one: `lock()` takes the write lock (reads still work, every write waits its 5 s busy
 * time and fails), `unlock()` gives it back. A real locked SQLite, not a stub.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { createFileStore, type CheckoutStore } from '../../src/server/index.js';

export function lockableFileStore(): { store: CheckoutStore; lock(): void; unlock(): void; close(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-locked-'));
  const store = createFileStore({ dataDir });
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const other = new Database(join(dataDir, 'momo-checkout.sqlite'));
  return {
    store,
    lock: () => other.exec('BEGIN IMMEDIATE'),
    unlock: () => other.exec('ROLLBACK'),
    async close() {
      other.close();
      await store.close?.();
    },
  };
}
