/**
 * The Postgres store's tables, as numbered migrations, all in one Postgres schema of their own
 * (default `momo_checkout`), so they live beside a shop's tables (Django's, Laravel's, Rails's in
 * `public`) without touching them: every statement names its schema, none sets `search_path`.
 *
 * A migration is appended, never edited: version N's statements run once on every database that was
 * at N-1. Adding a column to a record's row is a new migration (`ALTER TABLE … ADD COLUMN`) plus its
 * entry in postgres-records.ts.
 *
 * Expand, then contract (docs/releasing.md, "Migrations"): during a rolling upgrade the previous
 * release's processes run on the schema this one migrated, so a migration only adds (tables,
 * columns, functions, types) and keeps what is there, unless it says `readersFrom`. Where each is
 * recorded, and what a process of each release checks, is postgres-migrate.ts.
 *
 * Times are epoch milliseconds from the companion's clock (bigint), as in the other stores: a
 * database server whose clock is off does not shorten a record's life, and tests inject a clock.
 */

import type { PoolClient } from 'pg';
import { fillSupportViews } from './postgres-support-views.js';
import { batchFunctionsSql, rowFunctionsSql, writeFunctionsSql } from './postgres-write-functions.js';
import { linksTableSql } from './postgres-links.js';

/** Schema names this store accepts: plain lower-case identifiers, so they never need quoting rules in messages. */
const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

export const defaultSchema = 'momo_checkout';

export function checkSchemaName(name: string): string {
  if (!schemaName.test(name)) {
    throw new TypeError(`Postgres schema name ${JSON.stringify(name)}: use lower-case letters, digits and _ (at most 63, not starting with a digit), e.g. momo_checkout.`);
  }
  return name;
}

export interface Migration {
  version: number;
  /** What it adds, for the log and the version table. */
  summary: string;
  sql: (schema: string) => string;
  /** Run after `sql`, in its transaction: rows filled from their records by the companion's own rules. */
  fill?: (client: PoolClient, schema: string) => Promise<void>;
  /**
   * Absent: an expand migration. It only adds, so every process that worked on the schema before
   * still does, the previous release's among them, and it is recorded where they do not look.
   *
   * Set: a contract migration. Once it is applied, a process must know schema `readersFrom` or newer
   * (it drops or changes what older ones use); that number is recorded in `schema_version`, which
   * every release reads and refuses when it is above what it knows. During a rolling upgrade it must
   * not be above the previous release's schema version: a contract waits for the release after
   * the one that stopped using what it drops (test/server/stores/postgres/postgres-expand-contract.test.ts).
   */
  readersFrom?: number;
  /**
   * What a contract migration drops or changes of what earlier migrations made, as the expand rule's
   * test names catalog entries (`function release_locks(p_keys text[], p_owners text[]) void, body <md5>`):
   * the entries that test forgives. Empty for an expand migration.
   */
  changes?: readonly string[];
}

/**
 * Migrations 1 to 6 came before expand and contract were told apart: each was recorded in
 * `schema_version` as it is applied (0.5.0 and older read only that table), so each still says
 * `readersFrom` its own version, and a schema at 6 refuses a 0.4.x process as it always did.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    readersFrom: 1,
    summary: 'checkouts, service order ids, locks, inbox, ended console sessions, limits',
    sql: (s) => `
CREATE TABLE ${s}.checkouts (
  order_id text PRIMARY KEY,
  revision integer NOT NULL,
  token_hash text NOT NULL,
  return_id text NOT NULL,
  retain_until bigint NOT NULL,
  next_delivery_at bigint,          -- nextDeliveryAt(record): null when nothing is to be delivered
  payment_state text,               -- null until the checkout has a payment
  payment_updated_at bigint,
  -- The CheckoutRecord as written (json, not jsonb: kept byte for byte, any string it holds is
  -- accepted, and the shop can still read it: record->>'amount').
  record json NOT NULL
);
-- Not UNIQUE: an expired row may still hold a value until the sweep; reads filter on retain_until.
CREATE INDEX checkouts_token_hash ON ${s}.checkouts (token_hash);
CREATE INDEX checkouts_return_id ON ${s}.checkouts (return_id);
CREATE INDEX checkouts_retain_until ON ${s}.checkouts (retain_until);
CREATE INDEX checkouts_next_delivery_at ON ${s}.checkouts (next_delivery_at) WHERE next_delivery_at IS NOT NULL;
CREATE INDEX checkouts_payment_updated_at ON ${s}.checkouts (payment_updated_at, order_id) WHERE payment_state IS NOT NULL;
CREATE INDEX checkouts_payment_state ON ${s}.checkouts (payment_state, payment_updated_at, order_id) WHERE payment_state IS NOT NULL;

-- Every attempt's and refund pay-out's service order id, owned by its order for the order's lifetime.
CREATE TABLE ${s}.service_order_ids (
  service_order_id text PRIMARY KEY,
  order_id text NOT NULL REFERENCES ${s}.checkouts (order_id) ON DELETE CASCADE
);
CREATE INDEX service_order_ids_order_id ON ${s}.service_order_ids (order_id);

-- Named leases (pay:<orderId>, deliver:<orderId>): an owner until a time.
CREATE TABLE ${s}.locks (
  key text PRIMARY KEY,
  owner text NOT NULL,
  until bigint NOT NULL
);

CREATE TABLE ${s}.inbox (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,           -- arrival order among equal received_at
  raw_body text NOT NULL,
  received_at bigint NOT NULL,
  done boolean NOT NULL,
  until bigint NOT NULL
);
CREATE INDEX inbox_pending ON ${s}.inbox (received_at, seq) WHERE NOT done;

CREATE TABLE ${s}.ended_console_sessions (
  session_id text PRIMARY KEY,
  expires_at bigint NOT NULL
);

-- The page routes' limits (postgres-limits.ts).
CREATE TABLE ${s}.limit_buckets (
  name text NOT NULL,
  key text NOT NULL,
  tokens double precision NOT NULL,
  at bigint NOT NULL,
  until bigint NOT NULL,
  PRIMARY KEY (name, key)
);
CREATE TABLE ${s}.limit_numbers (
  order_id text NOT NULL,
  e164 text NOT NULL,
  until bigint NOT NULL,
  PRIMARY KEY (order_id, e164)
);
CREATE TABLE ${s}.limit_streams (
  order_id text NOT NULL,
  stream_id text NOT NULL,
  until bigint NOT NULL,
  PRIMARY KEY (order_id, stream_id)
);
`,
  },
  {
    version: 2,
    readersFrom: 2,
    summary: 'support views: support_at (what needs a person), payment_operator (operator rates), their indexes',
    sql: (s) => `
ALTER TABLE ${s}.checkouts ADD COLUMN payment_operator text, ADD COLUMN support_at bigint;
CREATE INDEX checkouts_support_at ON ${s}.checkouts (support_at, order_id) WHERE support_at IS NOT NULL;
-- Covers countPayments: a range of last changes, counted by state and operator, live rows only.
CREATE INDEX checkouts_payment_counts ON ${s}.checkouts (payment_updated_at, payment_state, payment_operator, retain_until) WHERE payment_state IS NOT NULL;
`,
    fill: fillSupportViews,
  },
  {
    version: 3,
    readersFrom: 3,
    summary: "the export's index: payments by creation time, then order id (listPaymentsCreated)",
    // Read from the record's json itself: no column to fill, the index covers the rows already there.
    sql: (s) => `
CREATE INDEX checkouts_payment_created ON ${s}.checkouts (((record->>'createdAt')::bigint), order_id) WHERE payment_state IS NOT NULL;
`,
  },
  {
    version: 4,
    readersFrom: 4,
    summary: 'racing writes as functions, one round trip each: create_if_absent, compare_and_set, release_lock, mark_inbox_done',
    sql: writeFunctionsSql,
  },
  {
    version: 5,
    readersFrom: 5,
    summary: 'payment links: the links table and its newest-first index (postgres-links.ts)',
    sql: linksTableSql,
  },
  {
    version: 6,
    readersFrom: 6,
    summary: "batched writes, one round trip for many callers: compare_and_set_many, release_locks (postgres-write-functions.ts)",
    sql: batchFunctionsSql,
  },
  {
    version: 7,
    summary: 'batched compare-and-sets that read their json once and write in one update: compare_and_set_rows (postgres-write-functions.ts)',
    sql: rowFunctionsSql,
  },
];

/** The newest schema version this companion knows. */
export const currentSchemaVersion = migrations[migrations.length - 1]!.version;

/** The tables the store needs rights on (the doctor checks each that exists). */
export const storeTables = ['checkouts', 'service_order_ids', 'locks', 'inbox', 'ended_console_sessions', 'limit_buckets', 'limit_numbers', 'limit_streams', 'links', 'schema_version', 'schema_migrations'] as const;
