/**
 * The file store's migrations follow expand, then contract (sqlite-schema.ts; docs/releasing.md,
 * "Migrations"), checked with the previous release's own file store (releases/companions/): a
 * later release's expand migration leaves `user_version` at what that release knows, so its
 * processes keep opening the file and reading what this one wrote; a contract migration moves it,
 * and every older process refuses the file with its own message instead of misreading it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createFileStore } from '../../../../src/server/index.js';
import type { CheckoutStore } from '../../../../src/server/stores/store.js';
import { sampleRecord } from '../../../../src/server/stores/store-contract.js';
import { fileMigrations, fileSchemaState, prepareFileStoreDatabase, SCHEMA_VERSION, type FileMigration } from '../../../../src/server/stores/sqlite/sqlite-schema.js';
import { unpackPreviousRelease, type PreviousRelease } from '../../../support/previous-release.js';

type PreviousFileStore = { createFileStore(options: { path: string }): CheckoutStore };

const dir = mkdtempSync(join(tmpdir(), 'momo-file-expand-'));
let files = 0;
const newPath = () => join(dir, `store-${++files}.sqlite`);

/** A later release's migration: a table of its own, expand (no `readersFrom`) unless given one. */
const later = (readersFrom?: number): FileMigration => ({
  version: SCHEMA_VERSION + 1,
  summary: 'a later release: a table of its own',
  apply: (db) => db.exec('CREATE TABLE later_release (id TEXT PRIMARY KEY) STRICT'),
  ...(readersFrom === undefined ? {} : { readersFrom }),
});

/** The file at `path` opened by the companion that knows `migrations`, and closed. */
function openWith(path: string, migrations: readonly FileMigration[]): void {
  const db = new Database(path);
  prepareFileStoreDatabase(db, path, migrations);
  db.close();
}

function stateOf(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return { ...fileSchemaState(db), recorded: db.prepare<[], { version: number; readers_from: number | null }>('SELECT version, readers_from FROM schema_migrations ORDER BY version').all() };
  } finally {
    db.close();
  }
}

describe('file store: expand now, contract in a later release', () => {
  let previous: PreviousRelease;
  let theirs: PreviousFileStore;
  before(async () => {
    previous = unpackPreviousRelease();
    theirs = await previous.load<PreviousFileStore>('server/stores/sqlite/sqlite-store.js');
  });
  after(() => {
    previous?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records each migration, and the previous release opens the file this one makes', async () => {
    const path = newPath();
    openWith(path, fileMigrations);
    const state = stateOf(path);
    assert.equal(state.version, SCHEMA_VERSION);
    assert.deepEqual(state.recorded, fileMigrations.map((migration) => ({ version: migration.version, readers_from: migration.readersFrom ?? null })));
    const known = (await previous.load<{ SCHEMA_VERSION: number }>('server/stores/sqlite/sqlite-schema.js')).SCHEMA_VERSION;
    assert.ok(state.readersFrom <= known, `user_version ${state.readersFrom}: at most momo-checkout ${previous.version}'s schema (${known})`);
    const old = theirs.createFileStore({ path });
    await old.close?.();
  });

  it("a later release's expand migration: this release and the previous one keep opening the file and reading its records", async () => {
    const path = newPath();
    const store = createFileStore({ path });
    const record = sampleRecord();
    await store.createIfAbsent(record);
    await store.close?.();

    openWith(path, [...fileMigrations, later()]);
    assert.deepEqual(stateOf(path).readersFrom, SCHEMA_VERSION, 'user_version is left at what this release knows');
    assert.equal(stateOf(path).version, SCHEMA_VERSION + 1);

    const ours = createFileStore({ path });
    assert.equal((await ours.getByOrderId(record.orderId))?.orderId, record.orderId);
    await ours.close?.();
    const old = theirs.createFileStore({ path });
    assert.equal((await old.getByOrderId(record.orderId))?.orderId, record.orderId, `momo-checkout ${previous.version} reads the record this release wrote`);
    const written = sampleRecord();
    await old.createIfAbsent(written);
    await old.close?.();
    const again = createFileStore({ path });
    assert.equal((await again.getByOrderId(written.orderId))?.orderId, written.orderId, `this release reads the record momo-checkout ${previous.version} wrote`);
    await again.close?.();
  });

  it('a contract migration: this release and the previous one refuse the file, saying to upgrade', () => {
    const path = newPath();
    openWith(path, [...fileMigrations, later(SCHEMA_VERSION + 1)]);
    assert.equal(stateOf(path).readersFrom, SCHEMA_VERSION + 1);
    const refusal = new RegExp(`written by a newer momo-checkout \\(schema ${SCHEMA_VERSION + 1}, this one knows ${SCHEMA_VERSION}\\): upgrade`);
    assert.throws(() => createFileStore({ path }), refusal);
    assert.throws(() => theirs.createFileStore({ path }), refusal);
  });
});
