/**
 * The migrations' rule (docs/releasing.md, "Migrations"): a release's migrations keep the previous
 * release's processes working. Held here against the previous release itself, as
 * releases/companions/ keeps it (its own migrations and its own check of the schema, run in this
 * process): its migrations are ours, unedited; every migration since is an expand one, or a contract
 * no stricter than the previous release; what its schema holds is still there after ours ran; its
 * check still passes on the migrated schema. And what a contract migration records, so the
 * processes it would break refuse, with what to do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrateSchema, readSchemaState } from '../../../../src/server/stores/postgres/postgres-migrate.js';
import { currentSchemaVersion, migrations, type Migration } from '../../../../src/server/stores/postgres/postgres-schema.js';
import { checkPostgres } from '../../../../src/server/stores/postgres/postgres-check.js';
import { silentLogger } from '../../../../src/server/log.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';
import { unpackPreviousRelease, type PreviousRelease } from '../../../support/previous-release.js';

type OldMigrate = { migrateSchema(pool: pg.Pool, schema: string): Promise<number[]> };
type OldSchema = { currentSchemaVersion: number; migrations: ReadonlyArray<{ version: number; summary: string; sql(schema: string): string }> };

const postgres = usePostgresDatabase();
let previous: PreviousRelease;
let old: { migrate: OldMigrate; schema: OldSchema };
let pool: pg.Pool;
let schemas = 0;
/**
 * What a schema holds that a process's SQL names: each table's and composite type's columns with
 * their types, each index, and each function with its arguments, result and body (a function
 * replaced with another body is a change too).
 */
async function catalog(schema: string): Promise<string[]> {
  const rows = await pool.query<{ entry: string }>(
    `SELECT (CASE c.relkind WHEN 'c' THEN 'type ' ELSE 'table ' END) || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) AS entry
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'c') AND a.attnum > 0 AND NOT a.attisdropped
     UNION ALL
     SELECT 'index ' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'i'
     UNION ALL
     SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || pg_get_function_result(p.oid) || ', body ' || md5(p.prosrc)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`,
    [schema],
  );
  // The schema's name appears in types and bodies: taken out, so two schemas compare.
  return rows.rows.map((row) => row.entry.replaceAll(`${schema}.`, '<schema>.')).sort();
}

const newSchema = () => `expand_${++schemas}`;

describe('postgres migrations: expand now, contract in a later release', () => {
  // Inside the suite: the server starts in the file's before hook (usePostgresDatabase), first.
  before(async () => {
    previous = unpackPreviousRelease();
    old = {
      migrate: await previous.load<OldMigrate>('server/stores/postgres/postgres-migrate.js'),
      schema: await previous.load<OldSchema>('server/stores/postgres/postgres-schema.js'),
    };
    pool = new pg.Pool({ connectionString: postgres.url, max: 3 });
  });
  after(async () => {
    await pool?.end();
    previous?.remove();
  });

  it("keeps the previous release's migrations as they were released, and adds none that would break it", () => {
    assert.ok(old.schema.currentSchemaVersion <= currentSchemaVersion, `momo-checkout ${previous.version} knows schema ${old.schema.currentSchemaVersion}`);
    for (const released of old.schema.migrations) {
      const ours = migrations.find((migration) => migration.version === released.version);
      assert.ok(ours, `migration ${released.version} of ${previous.version} is still here`);
      assert.equal(ours.sql('s'), released.sql('s'), `migration ${released.version} is appended, never edited`);
    }
    for (const migration of migrations.filter((each) => each.version > old.schema.currentSchemaVersion)) {
      if (migration.readersFrom === undefined) assert.equal(migration.changes, undefined, `migration ${migration.version}: an expand migration changes nothing`);
      else {
        assert.ok(
          migration.readersFrom <= old.schema.currentSchemaVersion,
          `migration ${migration.version} asks processes to know schema ${migration.readersFrom}: ${previous.version}'s (it knows ${old.schema.currentSchemaVersion}) would stop. A contract waits for the release after the one that stopped using what it drops.`,
        );
      }
    }
  });

  it("migrates a schema the previous release made, keeping every table, column, type, index and function it made, and the previous release's check still passes", async () => {
    const schema = newSchema();
    assert.deepEqual(await old.migrate.migrateSchema(pool, schema), old.schema.migrations.map((migration) => migration.version));
    const before = await catalog(schema);

    const applied = await migrateSchema(pool, schema, { log: silentLogger });
    assert.deepEqual(applied, migrations.filter((migration) => migration.version > old.schema.currentSchemaVersion).map((migration) => migration.version));
    const forgiven = new Set(migrations.filter((migration) => migration.version > old.schema.currentSchemaVersion).flatMap((migration) => migration.changes ?? []));
    const after = new Set(await catalog(schema));
    assert.deepEqual(before.filter((entry) => !after.has(entry) && !forgiven.has(entry)), [], `what ${previous.version} made and a migration since dropped or changed`);

    assert.deepEqual(await readSchemaState(pool, schema), { version: currentSchemaVersion, readersFrom: old.schema.currentSchemaVersion });
    // The previous release's own start on it: its check reads schema_version and finds what it knows.
    assert.deepEqual(await old.migrate.migrateSchema(pool, schema), []);
  });

  it('moves an expand migration recorded in schema_version (the code before the split) out of it, so the previous release starts again', async () => {
    const schema = newSchema();
    await migrateSchema(pool, schema, { log: silentLogger });
    // As the unreleased code between 0.5.0 and the split left it: migration 7 in schema_version, no other table.
    await pool.query(`INSERT INTO ${schema}.schema_version (version, summary, applied_by, applied_at) SELECT version, summary, applied_by, applied_at FROM ${schema}.schema_migrations WHERE version > 6; DROP TABLE ${schema}.schema_migrations`);
    await assert.rejects(old.migrate.migrateSchema(pool, schema), /migrated by a newer momo-checkout/, 'the previous release refuses it first');

    assert.deepEqual(await migrateSchema(pool, schema, { log: silentLogger }), [], 'nothing to apply');
    assert.deepEqual(await readSchemaState(pool, schema), { version: currentSchemaVersion, readersFrom: 6 });
    const moved = await pool.query<{ version: number; applied_by: string }>(`SELECT version, applied_by FROM ${schema}.schema_migrations ORDER BY version`);
    assert.deepEqual(moved.rows, [{ version: 7, applied_by: 'momo-checkout' }], 'kept with who applied it');
    assert.deepEqual(await old.migrate.migrateSchema(pool, schema), []);
  });

  it('records a contract migration where every release looks: processes that know less refuse and say what to do; an expand one beyond what a process knows leaves it working', async () => {
    const schema = newSchema();
    const expand: Migration = { version: currentSchemaVersion + 1, summary: 'a table added', sql: (s) => `CREATE TABLE ${s}.added (id text PRIMARY KEY)` };
    const contract: Migration = {
      version: currentSchemaVersion + 2,
      summary: "migration 6's release_locks dropped",
      readersFrom: currentSchemaVersion + 1,
      sql: (s) => `DROP FUNCTION ${s}.release_locks(text[], text[])`,
    };
    await migrateSchema(pool, schema, { log: silentLogger, migrations: [...migrations, expand] });
    // A process of this release (it knows one version less) and of the previous one, on the expanded schema.
    assert.deepEqual(await migrateSchema(pool, schema, { log: silentLogger }), []);
    assert.deepEqual(await old.migrate.migrateSchema(pool, schema), []);
    const expanded = await checkPostgres({ url: postgres.url, schema });
    assert.equal(expanded.ok, true, expanded.messages.join(' '));
    assert.match(expanded.messages.join(' '), new RegExp(`is at version ${expand.version}, newer than this momo-checkout knows \\(${currentSchemaVersion}\\), and its newer migrations keep this one working`));

    await migrateSchema(pool, schema, { log: silentLogger, migrations: [...migrations, expand, contract] });
    assert.deepEqual(await readSchemaState(pool, schema), { version: contract.version, readersFrom: expand.version });
    await assert.rejects(migrateSchema(pool, schema, { log: silentLogger }), (error: Error) => {
      assert.equal(error.name, 'PostgresStoreUnavailableError');
      assert.match(error.message, new RegExp(`needs its processes to know schema version ${expand.version} \\(the schema is at ${contract.version}; this momo-checkout knows ${currentSchemaVersion}\\): upgrade this process`));
      return true;
    });
    await assert.rejects(old.migrate.migrateSchema(pool, schema), new RegExp(`schema version ${expand.version}; this one knows ${old.schema.currentSchemaVersion}`));
    const contracted = await checkPostgres({ url: postgres.url, schema });
    assert.equal(contracted.ok, false);
    assert.match(contracted.messages.join(' '), new RegExp(`needs a momo-checkout that knows version ${expand.version}, newer than this one`));
  });

  it("doctor: a schema the previous release made has the rights the store needs, and is migrated at start", async () => {
    const schema = newSchema();
    await old.migrate.migrateSchema(pool, schema);
    const check = await checkPostgres({ url: postgres.url, schema });
    assert.equal(check.ok, true, check.messages.join(' '));
    assert.match(check.messages.join(' '), new RegExp(`schema ${schema} is at version ${old.schema.currentSchemaVersion}: the companion migrates it to ${currentSchemaVersion} at start`));
  });
});
