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
import { migrations } from '../../../src/server/stores/postgres/postgres-schema.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../../../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { SCHEMA_VERSION } from '../../../src/server/stores/sqlite/sqlite-schema.js';
import { sampleRecord, sampleRefund, samplePayment } from '../../../src/server/stores/store-contract.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { createDatabase, startPostgresServer } from '../../support/postgres-server.js';
import { startRedisServer } from '../../support/redis-server.js';
import { writeFileAs040, writePostgresAs040, writeRedisAs040 } from '../../support/stores-040.js';

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
    writeFileAs040(path, leftBy040('file'));

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
      writePostgresAs040(server, database, leftBy040('pg'));
      await assertViews(await createPostgresStore({ url: server.urlOf(database), log: silentLogger }), 'pg');
      // Migrated to this companion's version (the newest migration), migration 2 among them.
      assert.equal(server.psql('SELECT max(version) FROM momo_checkout.schema_migrations', database).trim(), String(migrations.at(-1)!.version));
    } finally {
      await server.stop();
    }
  });

  it('Redis: fills the new sets from the records once, at start', async () => {
    const server = await startRedisServer();
    try {
      const prefix = 'v040:';
      // What 0.4.0 wrote: the records and their payment indexes, none of the support views.
      await writeRedisAs040(server.url, prefix, leftBy040('redis'));

      await assertViews(await createRedisStore({ url: server.url, keyPrefix: prefix, log: silentLogger }), 'redis');
    } finally {
      await server.stop();
    }
  });
});
