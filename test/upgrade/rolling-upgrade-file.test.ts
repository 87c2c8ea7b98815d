/**
 * A rolling upgrade on the file store (issue 52; the test itself is rolling-upgrade.ts): both
 * releases' processes on one machine, sharing one MOMO_DATA_DIR (docs/deploy.md, sections 2 and 8).
 * The file's `user_version`, which every release reads at start and refuses above what it knows,
 * is left at what the previous release knows (sqlite-schema.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../src/server/stores/sqlite/sqlite-schema.js';
import { describeRollingUpgrade } from './rolling-upgrade.js';

const dataDir = mkdtempSync(join(tmpdir(), 'momo-rolling-file-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

describeRollingUpgrade({
  name: 'the file store',
  env: () => ({ MOMO_DATA_DIR: dataDir }),
  readersVersion: async () => {
    const db = new Database(join(dataDir, 'momo-checkout.sqlite'), { readonly: true });
    try {
      return db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  },
  upgraded: (_fresh, before) => {
    assert.ok(before! <= SCHEMA_VERSION, `the previous release's file asks its processes to know schema ${before}; this version knows ${SCHEMA_VERSION}`);
  },
});
