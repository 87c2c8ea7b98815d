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
import { inTransaction, PostgresStoreUnavailableError } from './postgres-connection.js';
import { currentSchemaVersion, migrations } from './postgres-schema.js';

/** The version the schema is at (0: not created yet). */
export async function schemaVersion(client: Pool | PoolClient, schema: string): Promise<number> {
  const exists = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [`${schema}.schema_version`]);
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
  return inTransaction(pool, async (client) => {
    // One migrating companion at a time, per schema; the others wait, then find it done.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`momo-checkout migrate ${schema}`]);
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
      await client.query(`INSERT INTO ${schema}.schema_version (version, summary, applied_by) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.summary,
        `momo-checkout ${options.appVersion ?? ''}`.trim(),
      ]);
      applied.push(migration.version);
    }
    if (applied.length > 0) options.log?.info('postgres schema migrated', { schema, from: at, to: currentSchemaVersion });
    return applied;
  });
}
