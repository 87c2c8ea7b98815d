/**
 * A rolling upgrade on PostgreSQL (issue 52; the test itself is rolling-upgrade.ts): both releases
 * on one database, this version migrating the schema at start while the previous one serves, and
 * `schema_version` (what every release reads at start) left at what the previous release knows.
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import { currentSchemaVersion } from '../../src/server/stores/postgres/postgres-schema.js';
import { usePostgresDatabase } from '../support/postgres-server.js';
import { describeRollingUpgrade } from './rolling-upgrade.js';

const postgres = usePostgresDatabase();

describeRollingUpgrade({
  name: 'PostgreSQL',
  env: () => ({ MOMO_POSTGRES_URL: postgres.url }),
  readersVersion: async () => {
    // A connection per read, closed at once: none is left for the server's stop to cut.
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query<{ version: number }>('SELECT max(version) AS version FROM momo_checkout.schema_version')).rows[0]!.version;
    } finally {
      await client.end();
    }
  },
  upgraded: (fresh, before) => {
    assert.ok(before! < currentSchemaVersion, `the previous release made schema ${before}; this version migrates it to ${currentSchemaVersion}`);
    assert.match(fresh.logs(), /postgres schema migrated/, 'this version migrated the schema at start');
  },
});
