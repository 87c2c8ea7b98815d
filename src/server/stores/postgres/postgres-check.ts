/**
 * What `npx momo-checkout doctor` checks of a Postgres store, without changing anything (it does
 * not migrate: the companion does that at start): the server answers, it accepts writes (not a
 * read-only standby), the role has the rights the store needs, and the schema's version is one this
 * companion can use. Each problem says what to run or set.
 */
import type { Pool } from 'pg';
import { openPool, unavailable, type PostgresConnectionOptions } from './postgres-connection.js';
import { readSchemaState } from './postgres-migrate.js';
import { checkSchemaName, currentSchemaVersion, defaultSchema, storeTables } from './postgres-schema.js';

export interface PostgresCheck {
  ok: boolean;
  /** One sentence per finding: what is fine, or what is wrong and what to do. */
  messages: string[];
}

async function rightsProblems(pool: Pool, schema: string, version: number): Promise<string[]> {
  const who = (await pool.query<{ role: string; database: string }>('SELECT current_user AS role, current_database() AS database')).rows[0]!;
  if (version === 0) {
    const can = await pool.query<{ create: boolean }>("SELECT has_database_privilege(current_database(), 'CREATE') AS create");
    const exists = await pool.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS found', [schema]);
    if (exists.rows[0]!.found) {
      const inSchema = await pool.query<{ create: boolean }>("SELECT has_schema_privilege($1, 'CREATE') AS create", [schema]);
      return inSchema.rows[0]!.create ? [] : [`role ${who.role} may not create tables in schema ${schema}: run GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${who.role}; as its owner.`];
    }
    return can.rows[0]!.create ? [] : [`role ${who.role} may not create schema ${schema} in database ${who.database}: run GRANT CREATE ON DATABASE ${who.database} TO ${who.role}; (or CREATE SCHEMA ${schema} AUTHORIZATION ${who.role}; as the owner).`];
  }
  const missing: string[] = [];
  const usage = await pool.query<{ usage: boolean }>("SELECT has_schema_privilege($1, 'USAGE') AS usage", [schema]);
  if (!usage.rows[0]!.usage) return [`role ${who.role} may not use schema ${schema}: run GRANT USAGE ON SCHEMA ${schema} TO ${who.role};`];
  // The tables there: a schema an older release made lacks the newer ones (the companion creates them at start).
  const present = await pool.query<{ tablename: string }>('SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = $1', [schema]);
  const tables = new Set(present.rows.map((row) => row.tablename));
  for (const table of storeTables.filter((name) => tables.has(name))) {
    // (has_table_privilege with a list of rights is true when any one is held: each is asked alone.)
    const all = await pool.query<{ ok: boolean }>(
      "SELECT has_table_privilege($1, 'SELECT') AND has_table_privilege($1, 'INSERT') AND has_table_privilege($1, 'UPDATE') AND has_table_privilege($1, 'DELETE') AS ok",
      [`${schema}.${table}`],
    );
    if (!all.rows[0]!.ok) missing.push(table);
  }
  if (missing.length === 0) return [];
  return [`role ${who.role} lacks SELECT, INSERT, UPDATE or DELETE on ${missing.map((table) => `${schema}.${table}`).join(', ')}: run GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${who.role}; and GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${who.role};`];
}

export async function checkPostgres(options: PostgresConnectionOptions & { schema?: string }): Promise<PostgresCheck> {
  const schema = checkSchemaName(options.schema ?? defaultSchema);
  let opened;
  try {
    opened = await openPool(options);
  } catch (error) {
    return { ok: false, messages: [error instanceof Error ? error.message : String(error)] };
  }
  const { pool, where } = opened;
  const messages: string[] = [];
  try {
    const server = (await pool.query<{ version: string; readOnly: string }>("SELECT current_setting('server_version') AS version, current_setting('transaction_read_only') AS \"readOnly\"")).rows[0]!;
    messages.push(`PostgreSQL ${server.version} at ${where} answers`);
    if (server.readOnly === 'on') {
      return { ok: false, messages: [...messages, 'it is read-only (a standby?): point MOMO_POSTGRES_URL at the primary.'] };
    }
    const { version, readersFrom } = await readSchemaState(pool, schema);
    if (readersFrom > currentSchemaVersion) {
      return {
        ok: false,
        messages: [
          ...messages,
          `schema ${schema} is at version ${version} and needs a momo-checkout that knows version ${readersFrom}, newer than this one (${currentSchemaVersion}): upgrade momo-checkout, or set MOMO_POSTGRES_SCHEMA to another schema.`,
        ],
      };
    }
    const problems = await rightsProblems(pool, schema, version);
    if (problems.length > 0) return { ok: false, messages: [...messages, ...problems] };
    if (version === 0) messages.push(`schema ${schema} does not exist yet: the companion creates it (version ${currentSchemaVersion}) at start`);
    else if (version < currentSchemaVersion) messages.push(`schema ${schema} is at version ${version}: the companion migrates it to ${currentSchemaVersion} at start`);
    else if (version > currentSchemaVersion) {
      messages.push(
        `schema ${schema} is at version ${version}, newer than this momo-checkout knows (${currentSchemaVersion}), and its newer migrations keep this one working (a rolling upgrade): upgrade this process too`,
      );
    } else messages.push(`schema ${schema} is at version ${version}, with the rights the store needs`);
    return { ok: true, messages };
  } catch (error) {
    return { ok: false, messages: [...messages, unavailable(where, error).message] };
  } finally {
    await opened.end().catch(() => {});
  }
}
