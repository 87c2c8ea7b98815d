/**
 * Creates and migrates the Postgres store's schema when a companion starts, and refuses a schema
 * that a newer companion migrated (an older one would write rows the newer reads wrongly).
 *
 * `<schema>.schema_version` holds one row per migration applied (version, summary, the
 * momo-checkout version that applied it, when). Migrations run in one transaction under an advisory
 * lock, so companions starting together migrate once; a failed migration leaves nothing behind.
 * A schema already at this version is only read: a companion whose role may not create tables (the
 * shop's DBA migrated with another role) still starts.
 */
import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../../log.js';
import { PostgresStoreUnavailableError } from './postgres-connection.js';
import { currentSchemaVersion, migrations } from './postgres-schema.js';

/** The version the schema is at (0: not created yet). */
export async function schemaVersion(client: Pool | PoolClient, schema: string): Promise<number> {
  // pg_tables, not to_regclass: a scan of the catalog under this statement's snapshot, not the session's cache.
  const exists = await client.query<{ found: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename = 'schema_version') AS found", [schema]);
  if (!exists.rows[0]!.found) return 0;
  const result = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema}.schema_version`);
  return result.rows[0]!.version ?? 0;
}

export function newerSchemaError(schema: string, found: number): PostgresStoreUnavailableError {
  return new PostgresStoreUnavailableError(
    `The Postgres schema ${schema} was migrated by a newer momo-checkout (schema version ${found}; this one knows ${currentSchemaVersion}): ` +
      'upgrade momo-checkout on every process that shares this database (an older one must not write there), or set MOMO_POSTGRES_SCHEMA to another schema.',
  );
}

/** Brings `schema` to the current version; returns the versions applied. */
export async function migrateSchema(pool: Pool, schema: string, options: { log?: Logger; appVersion?: string } = {}): Promise<number[]> {
  const found = await schemaVersion(pool, schema);
  if (found > currentSchemaVersion) throw newerSchemaError(schema, found);
  if (found === currentSchemaVersion) return [];
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
      return await migrateLocked(client, schema, options);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
    }
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

async function migrateLocked(client: PoolClient, schema: string, options: { log?: Logger; appVersion?: string }): Promise<number[]> {
  await client.query('BEGIN');
  try {
    const at = await schemaVersion(client, schema);
    if (at > currentSchemaVersion) throw newerSchemaError(schema, at);
    if (at === 0) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_version (
        version integer PRIMARY KEY,
        summary text NOT NULL,
        applied_by text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= at) continue;
      await client.query(migration.sql(schema));
      await migration.fill?.(client, schema);
      await client.query(`INSERT INTO ${schema}.schema_version (version, summary, applied_by) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.summary,
        `momo-checkout ${options.appVersion ?? ''}`.trim(),
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    if (applied.length > 0) options.log?.info('postgres schema migrated', { schema, from: at, to: currentSchemaVersion });
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
