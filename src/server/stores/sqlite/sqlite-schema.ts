/**
 * The file store's tables and how a file gets them: the schema (version 4, in `user_version`), the
 * migrations at open (each runs once, in one transaction with the version's change), and the pragmas every connection sets (WAL, when commits are fsynced, the
 * checkpoint size). Apart from the store so that the shape of the file, which other processes and
 * older or newer companions read, is one page to check.
 */
import { FileStoreUnavailableError, type SqliteDatabase } from './sqlite-open.js';
import { parseRecord, supportColumns } from './sqlite-statements.js';
import { linksTable } from './sqlite-links.js';

/** The version this companion writes (`user_version`); exported for the upgrade tests. */
export const SCHEMA_VERSION = 4;

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

function migrate(db: SqliteDatabase, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  if (version > SCHEMA_VERSION) {
    throw new FileStoreUnavailableError(
      `The file store at ${path} was written by a newer momo-checkout (schema ${version}, this one knows ${SCHEMA_VERSION}): upgrade momo-checkout, or set MOMO_DATA_DIR to another folder.`,
    );
  }
  db.transaction(() => {
    // Read again under the write lock: another process opening the same file may have just done it.
    const at = db.pragma('user_version', { simple: true }) as number;
    if (at === SCHEMA_VERSION) return;
    if (at < 1) db.exec(schemaVersion1);
    if (at < 2) addSupportViews(db);
    if (at < 3) db.exec(createdIndex);
    // Version 4: the payment links (sqlite-links.ts), a table of their own; no row changes.
    if (at < 4) db.exec(linksTable);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Sets the connection's pragmas and brings the file to this schema. On failure the database is
 * closed and the error is one {@link FileStoreUnavailableError} that says what to do.
 */
export function prepareFileStoreDatabase(db: SqliteDatabase, path: string): void {
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
    migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof FileStoreUnavailableError) throw error;
    throw new FileStoreUnavailableError(
      `Cannot use ${path} as the file store (${error instanceof Error ? error.message : String(error)}): is it a momo-checkout SQLite file on a local disk? Set MOMO_DATA_DIR to another folder.`,
      { cause: error },
    );
  }
}
