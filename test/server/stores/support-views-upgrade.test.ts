/**
 * A store written by 0.4.0 gets its support views by itself at start (issue 40): the SQLite file
 * (schema 1 → 2) and the PostgreSQL schema (migration 2) fill the new columns from each row's
 * record, and Redis fills its new sets from the records once per key prefix. Each starts from
 * what 0.4.0 left: a completed payment whose refund is still `sending`, one held for a differing
 * amount, and one settled, and must list the first two and count all three.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { silentLogger } from '../../../src/server/log.js';
import type { CheckoutRecord } from '../../../src/server/model/records.js';
import { currentSchemaVersion, migrations } from '../../../src/server/stores/postgres/postgres-schema.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../../../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { SCHEMA_VERSION, schemaVersion1 } from '../../../src/server/stores/sqlite/sqlite-schema.js';
import { sampleRecord, sampleRefund, samplePayment } from '../../../src/server/stores/store-contract.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { createDatabase, startPostgresServer } from '../../support/postgres-server.js';
import { startRedisServer } from '../../support/redis-server.js';

const now = Date.now();
const operator = { code: 'mtn', name: 'MTN', logoUrl: 'https://example.test/mtn.png', instructions: null };

/** What a 0.4.0 companion left: a refund still sending, a payment held for its amount, a settled one. */
function leftBy040(tag: string): CheckoutRecord[] {
  const paid = (name: string, updatedAt: number, extra: Partial<CheckoutRecord['payment'] & object> = {}): CheckoutRecord => ({
    ...sampleRecord({ orderId: `${tag}-${name}`, retainUntil: now + 24 * 3_600_000 }),
    revision: 3,
    payment: samplePayment(`${tag}-${name}`, { state: 'completed', updatedAt, operator, reportedPhoneNumber: '+2290196000001', ...extra }),
  });
  const refunding = { ...paid('refunding', now - 60_000), refunds: [sampleRefund(`${tag}-rf`, `${tag}-refunding-r1`)] };
  return [refunding, paid('held', now - 120_000, { state: 'failed', amountMismatch: true }), paid('settled', now - 180_000)];
}

async function assertViews(store: CheckoutStore, tag: string): Promise<void> {
  try {
    await assertListedAndCounted(store, tag);
  } finally {
    await store.close?.();
  }
}

async function assertListedAndCounted(store: CheckoutStore, tag: string): Promise<void> {
  const listed = (await store.listNeedingSupport!()).map((record) => record.orderId).filter((id) => id.startsWith(tag));
  assert.deepEqual(listed, [`${tag}-refunding`, `${tag}-held`], 'the refund still sending and the held payment, newest first');
  const counts = (await store.countPayments!(now - 3_600_000, now + 1)).filter((item) => item.operator === 'MTN');
  assert.deepEqual(counts.map((item) => `${item.state}:${item.count}`).sort(), ['completed:2', 'failed:1']);
  // The export's index (schema 3, migration 3, Redis's created set) holds the payments written before it.
  const created = (await store.listPaymentsCreated!({ from: 0, to: now + 1, limit: 100 })).map((record) => record.orderId).filter((id) => id.startsWith(tag));
  assert.deepEqual(created.sort(), [`${tag}-held`, `${tag}-refunding`, `${tag}-settled`], "the export finds every payment 0.4.0 wrote");
}

const dir = mkdtempSync(join(tmpdir(), 'momo-upgrade-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('support views on a store written by 0.4.0', () => {
  it('file store: migrates schema 1 to 2 at open and fills the new columns from each record', async () => {
    const path = join(dir, 'v040.sqlite');
    const db = new Database(path);
    db.exec(schemaVersion1);
    db.pragma('user_version = 1');
    const insert = db.prepare(
      `INSERT INTO checkouts (order_id, revision, token_hash, return_id, retain_until, next_delivery_at, payment_state, payment_updated_at, record) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
    );
    for (const record of leftBy040('file')) insert.run(record.orderId, record.revision, record.tokenHash, record.returnId, record.retainUntil, record.payment!.state, record.payment!.updatedAt, JSON.stringify(record));
    db.close();

    const store = createFileStore({ path });
    await assertViews(store, 'file');
    const reopened = new Database(path);
    assert.equal(reopened.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    reopened.close();
  });

  it('PostgreSQL: runs migration 2 (and those after it) at start and fills the new columns from each record', async () => {
    const server = await startPostgresServer();
    try {
      const database = createDatabase(server);
      // The schema as 0.4.0 created it (migration 1 and its version row), with its rows.
      const rows = leftBy040('pg')
        .map((record) => `('${record.orderId}', ${record.revision}, '${record.tokenHash}', '${record.returnId}', ${record.retainUntil}, '${record.payment!.state}', ${record.payment!.updatedAt}, '${JSON.stringify(record).replaceAll("'", "''")}')`)
        .join(', ');
      server.psql(
        `CREATE SCHEMA momo_checkout;
         CREATE TABLE momo_checkout.schema_version (version integer PRIMARY KEY, summary text NOT NULL, applied_by text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
         ${migrations[0]!.sql('momo_checkout')}
         INSERT INTO momo_checkout.schema_version (version, summary, applied_by) VALUES (1, 'v1', 'momo-checkout 0.4.0');
         INSERT INTO momo_checkout.checkouts (order_id, revision, token_hash, return_id, retain_until, payment_state, payment_updated_at, record) VALUES ${rows};`,
        database,
      );
      await assertViews(await createPostgresStore({ url: server.urlOf(database), log: silentLogger }), 'pg');
      // Migrated to this companion's version (the newest migration), migration 2 among them.
      assert.equal(server.psql('SELECT max(version) FROM momo_checkout.schema_version', database).trim(), String(migrations.at(-1)!.version));
    } finally {
      await server.stop();
    }
  });

  it('Redis: fills the new sets from the records once, at start', async () => {
    const server = await startRedisServer();
    try {
      const prefix = 'v040:';
      const writer = await createRedisStore({ url: server.url, keyPrefix: prefix, log: silentLogger });
      for (const record of leftBy040('redis')) await writer.createIfAbsent(record);
      await writer.close?.();
      // What 0.4.0 wrote: the records and their payment indexes, none of the support views.
      const raw = await import('redis').then(({ createClient }) => createClient({ url: server.url }).connect());
      for (const key of await raw.keys(`${prefix}counts:*`)) await raw.del(key);
      await raw.del([`${prefix}support`, `${prefix}operators`, `${prefix}support-views`, `${prefix}created`, `${prefix}created-view`]);
      for (const key of await raw.keys(`${prefix}checkout:*`)) await raw.hDel(key, 'operator');
      await raw.quit();

      await assertViews(await createRedisStore({ url: server.url, keyPrefix: prefix, log: silentLogger }), 'redis');
    } finally {
      await server.stop();
    }
  });
});
