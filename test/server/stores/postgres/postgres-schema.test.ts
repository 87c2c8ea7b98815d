/**
 * The Postgres store's schema against a real PostgreSQL 15: created at start in a schema of its own
 * beside a Django-like shop's tables (which it never touches), versioned, migrated once by
 * companions starting together, refused with what to do when a newer companion migrated it; and
 * `doctor`'s check of the connection, the role's rights and the version.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { checkPostgres } from '../../../../src/server/stores/postgres/postgres-check.js';
import { currentSchemaVersion, migrations } from '../../../../src/server/stores/postgres/postgres-schema.js';
import { storeCheck } from '../../../../src/server/commands/store-check.js';
import { silentLogger } from '../../../../src/server/log.js';
import { sampleRecord, withPayment } from '../../../../src/server/stores/store-contract.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(async () => {
  await server?.stop();
});

/** What a Django project's first `migrate` leaves in `public`, and one order of the shop's. */
const djangoShop = `
CREATE TABLE django_migrations (id bigserial PRIMARY KEY, app varchar(255) NOT NULL, name varchar(255) NOT NULL, applied timestamptz NOT NULL);
CREATE TABLE auth_user (id serial PRIMARY KEY, password varchar(128) NOT NULL, username varchar(150) UNIQUE NOT NULL, email varchar(254) NOT NULL);
CREATE TABLE shop_order (id bigserial PRIMARY KEY, reference varchar(64) UNIQUE NOT NULL, amount numeric(12, 0) NOT NULL, paid boolean NOT NULL DEFAULT false);
INSERT INTO django_migrations (app, name, applied) VALUES ('contenttypes', '0001_initial', now()), ('auth', '0001_initial', now()), ('shop', '0001_initial', now());
INSERT INTO auth_user (password, username, email) VALUES ('pbkdf2_sha256$x', 'admin', 'admin@shop.test');
INSERT INTO shop_order (reference, amount) VALUES ('order-42', 5000);
`;

/** Every table of `public` with its columns and rows, to compare before and after. */
const publicState = (database: string) =>
  server.psql(
    `SELECT string_agg(table_name || ':' || column_name || ':' || data_type, ',' ORDER BY table_name, ordinal_position) FROM information_schema.columns WHERE table_schema = 'public';
     SELECT json_agg(m ORDER BY id) FROM django_migrations m; SELECT json_agg(u) FROM auth_user u; SELECT json_agg(o) FROM shop_order o;`,
    database,
  );

describe('postgres store: a schema of its own', () => {
  it('lives beside a Django-like shop’s tables in its own schema, and leaves the shop’s tables as they were', async () => {
    const database = createDatabase(server, 'django_shop');
    server.psql(djangoShop, database);
    const before = publicState(database);
    const url = server.urlOf(database);

    const store = await createPostgresStore({ url, log: silentLogger });
    const record = sampleRecord({ orderId: 'order-42' });
    await store.createIfAbsent(record);
    await store.compareAndSet(record.orderId, 0, withPayment(record, record.orderId, 1, 'completed', Date.now()));
    await store.close?.();

    assert.equal(publicState(database), before, 'public: the same tables, columns and rows');
    const tables = server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'momo_checkout'", database).trim();
    assert.equal(tables, 'checkouts,ended_console_sessions,inbox,limit_buckets,limit_numbers,limit_streams,links,locks,schema_migrations,schema_version,service_order_ids');
    // The shop can read a payment with plain SQL, beside its own order.
    assert.equal(
      server.psql("SELECT o.reference || ' ' || (c.record->'payment'->>'state') FROM shop_order o JOIN momo_checkout.checkouts c ON c.order_id = o.reference", database).trim(),
      'order-42 completed',
    );
    assert.equal(server.psql('SHOW search_path', database).trim(), '"$user", public', 'the search path is not changed');
  });

  it('records its version, and is migrated once by companions starting together', async () => {
    const url = server.urlOf(createDatabase(server));
    const stores = await Promise.all(Array.from({ length: 4 }, () => createPostgresStore({ url, schema: 'shared_start', log: silentLogger })));
    for (const store of stores) await store.close?.();
    const database = new URL(url).pathname.slice(1);
    // Each migration once, however many companions started together; schema_version holds what a
    // process must know (1 to 6, recorded there before expand migrations had their own table).
    const applied = server.psql('SELECT string_agg(version::text || applied_by, \',\' ORDER BY version) FROM shared_start.schema_migrations', database).trim();
    assert.equal(applied, migrations.map((migration) => `${migration.version}momo-checkout`).join(','));
    assert.equal(migrations[migrations.length - 1]!.version, currentSchemaVersion);
    const required = server.psql('SELECT string_agg(version::text, \',\' ORDER BY version) FROM shared_start.schema_version', database).trim();
    assert.equal(required, migrations.filter((migration) => migration.readersFrom !== undefined).map((migration) => migration.readersFrom).join(','));
  });

  it('refuses a schema a newer companion migrated, saying what to do, and writes nothing', async () => {
    const url = server.urlOf(createDatabase(server));
    const database = new URL(url).pathname.slice(1);
    await (await createPostgresStore({ url, log: silentLogger })).close?.();
    server.psql(`INSERT INTO momo_checkout.schema_version (version, summary, applied_by) VALUES (${currentSchemaVersion + 1}, 'from the future', 'momo-checkout 9.0.0')`, database);
    await assert.rejects(createPostgresStore({ url, log: silentLogger }), (error: Error) => {
      assert.equal(error.name, 'PostgresStoreUnavailableError');
      assert.match(error.message, new RegExp(`migrated by a newer momo-checkout that needs its processes to know schema version ${currentSchemaVersion + 1} \\(the schema is at ${currentSchemaVersion + 1}; this momo-checkout knows ${currentSchemaVersion}\\): upgrade this process`));
      assert.match(error.message, /MOMO_POSTGRES_SCHEMA/);
      return true;
    });
    const check = await checkPostgres({ url });
    assert.equal(check.ok, false);
    assert.match(check.messages.join(' '), new RegExp(`needs a momo-checkout that knows version ${currentSchemaVersion + 1}, newer than this one \\(${currentSchemaVersion}\\): upgrade momo-checkout`));
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await assert.rejects(createPostgresStore({ url: server.url, schema: 'shop; DROP TABLE x', log: silentLogger }), /use lower-case letters, digits and _/);
  });
});

describe('postgres store: doctor', () => {
  it('says the schema will be created at start, then that it is current, through `doctor`’s store check', async () => {
    const url = server.urlOf(createDatabase(server));
    const fresh = await storeCheck({ MOMO_POSTGRES_URL: url });
    assert.equal(fresh.status, 'ok', fresh.message);
    assert.match(fresh.message, /PostgreSQL 15\.\d+ .*at 127\.0\.0\.1:\d+\/\w+ answers; schema momo_checkout does not exist yet: the companion creates it \(version \d+\) at start/);
    await (await createPostgresStore({ url, log: silentLogger })).close?.();
    const current = await storeCheck({ MOMO_POSTGRES_URL: url });
    assert.equal(current.status, 'ok', current.message);
    assert.match(current.message, /schema momo_checkout is at version \d+, with the rights the store needs/);
  });

  it('names the rights a role lacks, with the GRANT to run', async () => {
    const database = createDatabase(server);
    const url = server.urlOf(database);
    await (await createPostgresStore({ url, log: silentLogger })).close?.();
    server.psql("CREATE ROLE shop_reader LOGIN; GRANT USAGE ON SCHEMA momo_checkout TO shop_reader; GRANT SELECT ON ALL TABLES IN SCHEMA momo_checkout TO shop_reader;", database);
    const check = await storeCheck({ MOMO_POSTGRES_URL: server.urlOf(database, 'shop_reader') });
    assert.equal(check.status, 'error');
    assert.match(check.message, /role shop_reader lacks SELECT, INSERT, UPDATE or DELETE on momo_checkout\.checkouts, .*GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA momo_checkout TO shop_reader;/);

    const newDatabase = createDatabase(server);
    server.psql(`REVOKE CREATE ON SCHEMA public FROM PUBLIC; REVOKE CREATE ON DATABASE ${newDatabase} FROM PUBLIC`, newDatabase);
    const cannotCreate = await storeCheck({ MOMO_POSTGRES_URL: server.urlOf(newDatabase, 'shop_reader') });
    assert.equal(cannotCreate.status, 'error');
    assert.match(cannotCreate.message, new RegExp(`may not create schema momo_checkout in database ${newDatabase}: run GRANT CREATE ON DATABASE ${newDatabase} TO shop_reader;`));
  });

  it('says a server that does not answer, and what to check', async () => {
    const check = await storeCheck({ MOMO_POSTGRES_URL: 'postgres://momo@127.0.0.1:1/none' });
    assert.equal(check.status, 'error');
    assert.match(check.message, /Cannot use PostgreSQL at 127\.0\.0\.1:1\/none: .*ECONNREFUSED.*Check MOMO_POSTGRES_URL/);
  });
});
