/**
 * The file store's tables and how a file gets them: the schema as numbered migrations (each runs
 * once, in one transaction with its record), and the pragmas every connection sets (WAL, when
 * commits are fsynced, the checkpoint size). Apart from the store so that the shape of the file,
 * which other processes and older or newer companions read, is one page to check.
 *
 * Expand, then contract, as on PostgreSQL (postgres-migrate.ts; docs/releasing.md, "Migrations"):
 * during a rolling upgrade the previous release's processes share the file this one migrated.
 * - `user_version` is the oldest schema version a process must know to use the file. Every release
 *   reads it (0.5.0 and older read nothing else) and refuses a number above what it knows. Only a
 *   contract migration moves it (to its `readersFrom`); versions 1 to 4, from before the split,
 *   each wrote their own.
 * - `schema_migrations` records every migration this release or a later one applied: an expand
 *   migration is recorded there alone, so the previous release's processes keep opening the file.
 * The file's version is the newest of the two.
 */
import { FileStoreUnavailableError, type SqliteDatabase } from './sqlite-open.js';
import { parseRecord, supportColumns } from './sqlite-statements.js';
import { linksTable } from './sqlite-links.js';

/** Version 1 (0.4.0 and before); exported for the upgrade test, which writes a file of that shape. */
export const schemaVersion1 = `
CREATE TABLE checkouts (
  order_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  token_hash TEXT NOT NULL,
  return_id TEXT NOT NULL,
  retain_until INTEGER NOT NULL,
  next_delivery_at INTEGER,        -- nextDeliveryAt(record): null when nothing is to be delivered
  payment_state TEXT,              -- null until the checkout has a payment
  payment_updated_at INTEGER,
  record TEXT NOT NULL             -- the CheckoutRecord as JSON
) STRICT;
-- Not UNIQUE: an expired row may still hold a value until the sweep; reads filter on retain_until.
CREATE INDEX checkouts_token_hash ON checkouts (token_hash);
CREATE INDEX checkouts_return_id ON checkouts (return_id);
CREATE INDEX checkouts_retain_until ON checkouts (retain_until);
CREATE INDEX checkouts_next_delivery_at ON checkouts (next_delivery_at) WHERE next_delivery_at IS NOT NULL;
CREATE INDEX checkouts_payment_updated_at ON checkouts (payment_updated_at) WHERE payment_state IS NOT NULL;
CREATE INDEX checkouts_payment_state ON checkouts (payment_state, payment_updated_at) WHERE payment_state IS NOT NULL;

-- Every attempt's service order id, owned by its order for the order's lifetime.
CREATE TABLE service_order_ids (
  service_order_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES checkouts (order_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX service_order_ids_order_id ON service_order_ids (order_id);

CREATE TABLE locks (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  until INTEGER NOT NULL
) STRICT;

CREATE TABLE inbox (
  id TEXT PRIMARY KEY,
  raw_body TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  done INTEGER NOT NULL,
  until INTEGER NOT NULL
) STRICT;
CREATE INDEX inbox_pending ON inbox (received_at) WHERE done = 0;
`;

/**
 * Version 2: the support views (model/support.ts). `support_at` is set while a record needs a
 * person (the newest first); `payment_operator` lets the operator rates count payments from an
 * index without reading a record. Existing rows are filled from their JSON in the same transaction.
 */
const supportViews = `
ALTER TABLE checkouts ADD COLUMN payment_operator TEXT;
ALTER TABLE checkouts ADD COLUMN support_at INTEGER;
CREATE INDEX checkouts_support_at ON checkouts (support_at) WHERE support_at IS NOT NULL;
-- Covers countPayments: a range of last changes, counted by state and operator, live rows only.
CREATE INDEX checkouts_payment_counts ON checkouts (payment_updated_at, payment_state, payment_operator, retain_until) WHERE payment_state IS NOT NULL;
`;

function addSupportViews(db: SqliteDatabase): void {
  db.exec(supportViews);
  const page = db.prepare<[number], { rowid: number; order_id: string; record: string }>(
    'SELECT rowid, order_id, record FROM checkouts WHERE payment_state IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT 1000',
  );
  const fill = db.prepare('UPDATE checkouts SET payment_operator = ?, support_at = ? WHERE order_id = ?');
  // A page at a time (a statement cannot write while another still reads).
  for (let rows = page.all(0); rows.length > 0; rows = page.all(rows[rows.length - 1]!.rowid)) {
    for (const row of rows) {
      const columns = supportColumns(parseRecord(row.record));
      fill.run(columns.paymentOperator, columns.supportAt, row.order_id);
    }
  }
}

/**
 * Version 3: the export's index (store.ts `listPaymentsCreated`): payments by creation time, then
 * order id, read from the record's JSON itself, so no column is added and existing rows are indexed
 * by the statement that creates it.
 */
const createdIndex = `
CREATE INDEX checkouts_payment_created ON checkouts (json_extract(record, '$.createdAt'), order_id) WHERE payment_state IS NOT NULL;
`;

export interface FileMigration {
  version: number;
  /** What it adds, for `schema_migrations`. */
  summary: string;
  apply: (db: SqliteDatabase) => void;
  /**
   * Absent: an expand migration (it only adds; every process that used the file before still can).
   * Set: a contract migration: from then on a process must know schema `readersFrom` or newer, and
   * `user_version` says so. During a rolling upgrade it is at most the previous release's version.
   */
  readersFrom?: number;
}

/** Appended, never edited: version N runs once on every file that was at N-1. */
export const fileMigrations: readonly FileMigration[] = [
  { version: 1, readersFrom: 1, summary: 'checkouts, service order ids, locks, inbox', apply: (db) => db.exec(schemaVersion1) },
  { version: 2, readersFrom: 2, summary: 'support views: payment_operator, support_at', apply: addSupportViews },
  { version: 3, readersFrom: 3, summary: "the export's index by creation time", apply: (db) => db.exec(createdIndex) },
  // The payment links (sqlite-links.ts), a table of their own; no row changes.
  { version: 4, readersFrom: 4, summary: 'payment links', apply: (db) => db.exec(linksTable) },
];

/** The newest version this companion knows (what it migrates a file to); exported for the upgrade tests. */
export const SCHEMA_VERSION = fileMigrations.at(-1)!.version;

const migrationsTable = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  summary TEXT NOT NULL,
  applied_at INTEGER NOT NULL,     -- epoch milliseconds
  readers_from INTEGER             -- null: an expand migration
) STRICT;
`;

/** The file's version (0: empty) and the oldest version a process must know to use it (`user_version`). */
export function fileSchemaState(db: SqliteDatabase): { version: number; readersFrom: number } {
  const readersFrom = db.pragma('user_version', { simple: true }) as number;
  const recorded = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  const applied = recorded ? (db.prepare<[], { newest: number | null }>('SELECT max(version) AS newest FROM schema_migrations').get()!.newest ?? 0) : 0;
  return { version: Math.max(readersFrom, applied), readersFrom };
}

function migrate(db: SqliteDatabase, path: string, migrations: readonly FileMigration[]): void {
  const current = migrations.at(-1)!.version;
  const refuseNewer = (state: { readersFrom: number }) => {
    if (state.readersFrom <= current) return;
    throw new FileStoreUnavailableError(
      `The file store at ${path} was written by a newer momo-checkout (schema ${state.readersFrom}, this one knows ${current}): ` +
        'upgrade this process to the release the others sharing the file run (a release keeps only the previous one working beside it: docs/releasing.md), or set MOMO_DATA_DIR to another folder.',
    );
  };
  const found = fileSchemaState(db);
  refuseNewer(found);
  // A newer release's expand migrations keep this one working: the file is used as it is.
  if (found.version >= current) return;
  db.transaction(() => {
    // Read again under the write lock: another process opening the same file may have just done it.
    const at = fileSchemaState(db);
    refuseNewer(at);
    if (at.version >= current) return;
    db.exec(migrationsTable);
    const record = db.prepare('INSERT INTO schema_migrations (version, summary, applied_at, readers_from) VALUES (?, ?, ?, ?)');
    let readersFrom = at.readersFrom;
    for (const migration of migrations) {
      if (migration.version <= at.version) continue;
      migration.apply(db);
      record.run(migration.version, migration.summary, Date.now(), migration.readersFrom ?? null);
      readersFrom = Math.max(readersFrom, migration.readersFrom ?? 0);
    }
    db.pragma(`user_version = ${readersFrom}`);
  }).immediate();
}

/**
 * Sets the connection's pragmas and brings the file to this schema (`migrations`: the store's; tests
 * give a later release's). On failure the database is
 * closed and the error is one {@link FileStoreUnavailableError} that says what to do.
 */
export function prepareFileStoreDatabase(db: SqliteDatabase, path: string, migrations: readonly FileMigration[] = fileMigrations): void {
  try {
    // WAL with synchronous NORMAL: a commit reaches the operating system (survives kill -9); the
    // writes that must reach the disk switch to FULL for their commit (sqlite-fsync.ts).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoints (copying the WAL into the database, with an fsync) every ~40 MB rather than 4 MB:
    // on the webhook's hot path they were a third of the write time. A busy store checkpoints on a
    // thread of its own long before (sqlite-checkpointer.ts): this is what is left to its commits.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('foreign_keys = ON');
    // Each write of a group commit (a statement, or a savepoint) keeps undo copies of the pages it
    // changes, so that it alone can be undone (the statement journal); in a temporary file they were
    // 50 KiB written per notification, five times the WAL's own (issue 43's figures). In memory they
    // are a copy, not a system call; a statement journal lives only while its write does, so nothing
    // durable is held there.
    db.pragma('temp_store = MEMORY');
    migrate(db, path, migrations);
  } catch (error) {
    db.close();
    if (error instanceof FileStoreUnavailableError) throw error;
    throw new FileStoreUnavailableError(
      `Cannot use ${path} as the file store (${error instanceof Error ? error.message : String(error)}): is it a momo-checkout SQLite file on a local disk? Set MOMO_DATA_DIR to another folder.`,
      { cause: error },
    );
  }
}
