/**
 * Creates and migrates the Postgres store's schema when a companion starts, and refuses a schema
 * that a newer companion changed in a way this one cannot work with, while a schema that a newer
 * one only expanded is used as it is (a rolling upgrade: docs/releasing.md, "Migrations").
 *
 * Two tables record the migrations:
 * - `<schema>.schema_version`: the oldest schema version a process must know to use this schema,
 *   as its newest row. Every release reads it (0.5.0 and older read nothing else) and refuses a
 *   number above what it knows. A contract migration writes its `readersFrom` there; an expand
 *   migration writes nothing there, so the previous release's processes keep starting.
 *   Migrations 1 to 6, from before the split, each wrote their own version.
 * - `<schema>.schema_migrations`: every migration this release or a later one applied (version,
 *   summary, the momo-checkout version that applied it, when, its `readersFrom`).
 * The schema's version (what `doctor` reports) is the newest row of either.
 *
 * Migrations run in one transaction under an advisory lock, so companions starting together migrate
 * once; a failed migration leaves nothing behind. A schema already at this version is only read: a
 * companion whose role may not create tables (the shop's DBA migrated with another role) still starts.
 */
import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../../log.js';
import { PostgresStoreUnavailableError } from './postgres-connection.js';
import { migrations as knownMigrations, type Migration } from './postgres-schema.js';

export interface SchemaState {
  /** The newest migration applied (0: not created yet). */
  version: number;
  /** The oldest schema version a process must know to use it: `schema_version`'s newest row. */
  readersFrom: number;
}

/** What `migrations` say a schema at `version` requires of its processes (their newest `readersFrom`). */
export function readersFromAt(migrations: readonly Migration[], version: number): number {
  let most = 0;
  for (const migration of migrations) if (migration.version <= version && migration.readersFrom !== undefined) most = Math.max(most, migration.readersFrom);
  return most;
}

/** The schema's version and what it requires of a process (0, 0: not created yet). */
export async function readSchemaState(client: Pool | PoolClient, schema: string): Promise<SchemaState> {
  // pg_tables, not to_regclass: a scan of the catalog under this statement's snapshot, not the session's cache.
  const found = await client.query<{ tablename: string }>(
    "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename IN ('schema_version', 'schema_migrations')",
    [schema],
  );
  const tables = new Set(found.rows.map((row) => row.tablename));
  if (!tables.has('schema_version')) return { version: 0, readersFrom: 0 };
  const applied = tables.has('schema_migrations') ? `(SELECT max(version) FROM ${schema}.schema_migrations)` : 'NULL::integer';
  const result = await client.query<{ required: number | null; applied: number | null }>(
    `SELECT (SELECT max(version) FROM ${schema}.schema_version) AS required, ${applied} AS applied`,
  );
  const required = result.rows[0]!.required ?? 0;
  return { version: Math.max(required, result.rows[0]!.applied ?? 0), readersFrom: required };
}

/**
 * Rows of `schema_version` that ask more of a process than the migrations applied do: expand
 * migrations recorded there before they had their own table (migration 7, by the unreleased code
 * between 0.5.0 and the release that split them). Moved to `schema_migrations` at start, so the
 * previous release's processes start again. Only on a schema no newer than this release knows: a
 * newer release's rows are its own.
 */
function hasStrayRows(state: SchemaState, migrations: readonly Migration[]): boolean {
  const current = migrations.at(-1)!.version;
  return state.version <= current && state.readersFrom > readersFromAt(migrations, state.version);
}

export function newerSchemaError(schema: string, state: SchemaState, current: number): PostgresStoreUnavailableError {
  return new PostgresStoreUnavailableError(
    `The Postgres schema ${schema} was migrated by a newer momo-checkout that needs its processes to know schema version ${state.readersFrom} (the schema is at ${state.version}; this momo-checkout knows ${current}): ` +
      'upgrade this process to the release the others run (a release keeps only the previous one working beside it: docs/releasing.md), or set MOMO_POSTGRES_SCHEMA to another schema.',
  );
}

export interface MigrateOptions {
  log?: Logger;
  appVersion?: string;
  /** The migrations this process knows (default: the store's, postgres-schema.ts); tests give others. */
  migrations?: readonly Migration[];
}

/** Brings `schema` to the current version; returns the versions applied. */
export async function migrateSchema(pool: Pool, schema: string, options: MigrateOptions = {}): Promise<number[]> {
  const migrations = options.migrations ?? knownMigrations;
  const current = migrations.at(-1)!.version;
  const found = await readSchemaState(pool, schema);
  if (found.readersFrom > current) throw newerSchemaError(schema, found, current);
  if (found.version >= current && !hasStrayRows(found, migrations)) {
    if (found.version > current) {
      options.log?.info('postgres schema is newer than this momo-checkout and keeps it working (expand migrations): used as it is', { schema, at: found.version, knows: current });
    }
    return [];
  }
  // One migrating companion at a time, per schema; the others wait, then find it done. A session
  // lock taken before the transaction begins, not a transaction lock inside it: a transaction that
  // starts after the wait sees the tables the first companion created (a lookup made inside an
  // already open transaction may still answer from the session's cache that they do not exist).
  const client = await pool.connect();
  const lock = `momo-checkout migrate ${schema}`;
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
    try {
      return await migrateLocked(client, schema, migrations, options);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
    }
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

async function migrateLocked(client: PoolClient, schema: string, migrations: readonly Migration[], options: MigrateOptions): Promise<number[]> {
  const current = migrations.at(-1)!.version;
  const appliedBy = `momo-checkout ${options.appVersion ?? ''}`.trim();
  await client.query('BEGIN');
  try {
    const at = await readSchemaState(client, schema);
    if (at.readersFrom > current) throw newerSchemaError(schema, at, current);
    if (at.version === 0) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_version (
        version integer PRIMARY KEY,
        summary text NOT NULL,
        applied_by text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    }
    // Created by the first release that records expand migrations apart; older ones never read it.
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
      version integer PRIMARY KEY,
      summary text NOT NULL,
      applied_by text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      readers_from integer
    )`);
    if (hasStrayRows(at, migrations)) {
      const moved = await client.query<{ version: number }>(
        `WITH moved AS (DELETE FROM ${schema}.schema_version WHERE version > $1 RETURNING *)
         INSERT INTO ${schema}.schema_migrations (version, summary, applied_by, applied_at) SELECT version, summary, applied_by, applied_at FROM moved
         ON CONFLICT (version) DO NOTHING RETURNING version`,
        [readersFromAt(migrations, at.version)],
      );
      options.log?.info('postgres schema: expand migrations moved out of schema_version, so the previous release starts on it', {
        schema,
        versions: moved.rows.map((row) => row.version),
      });
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= at.version) continue;
      await client.query(migration.sql(schema));
      await migration.fill?.(client, schema);
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, summary, applied_by, readers_from) VALUES ($1, $2, $3, $4)`, [
        migration.version,
        migration.summary,
        appliedBy,
        migration.readersFrom ?? null,
      ]);
      if (migration.readersFrom !== undefined) {
        const summary =
          migration.readersFrom === migration.version ? migration.summary : `required by migration ${migration.version}: ${migration.summary}`;
        await client.query(`INSERT INTO ${schema}.schema_version (version, summary, applied_by) VALUES ($1, $2, $3) ON CONFLICT (version) DO NOTHING`, [
          migration.readersFrom,
          summary,
          appliedBy,
        ]);
      }
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    if (applied.length > 0) options.log?.info('postgres schema migrated', { schema, from: at.version, to: current });
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
