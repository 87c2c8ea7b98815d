/**
 * Stores as release 0.4.0 left them, for the upgrade tests: the rows and keys it wrote, in the shapes
 * it wrote them, and none of what later versions add (the file's schema 2 and 3, PostgreSQL's
 * migrations after 1, Redis's support views and created index). The records are written as given:
 * a test passes records of 0.4.0's shape (a delivery without `kind`, say) and opens this version's
 * store over them.
 */
import Database from 'better-sqlite3';
import { createClient } from 'redis';
import { silentLogger } from '../../src/server/log.js';
import { nextDeliveryAt, serviceOrderIdsOf, type CheckoutRecord } from '../../src/server/model/records.js';
import { migrations } from '../../src/server/stores/postgres/postgres-schema.js';
import { createRedisStore } from '../../src/server/stores/redis/redis-store.js';
import { schemaVersion1 } from '../../src/server/stores/sqlite/sqlite-schema.js';
import type { PostgresServer } from './postgres-server.js';

/** The columns 0.4.0 wrote beside each record (schema 1 of the file, migration 1 of PostgreSQL). */
const columns040 = ['order_id', 'revision', 'token_hash', 'return_id', 'retain_until', 'next_delivery_at', 'payment_state', 'payment_updated_at', 'record'] as const;

function row040(record: CheckoutRecord): Array<string | number | null> {
  const { orderId, revision, tokenHash, returnId, retainUntil, payment } = record;
  return [orderId, revision, tokenHash, returnId, retainUntil, nextDeliveryAt(record), payment?.state ?? null, payment?.updatedAt ?? null, JSON.stringify(record)];
}

/** A file store's file (schema 1, `user_version` 1) at `path`, holding `records`. */
export function writeFileAs040(path: string, records: readonly CheckoutRecord[]): void {
  const db = new Database(path);
  try {
    db.exec(schemaVersion1);
    db.pragma('user_version = 1');
    const insert = db.prepare(`INSERT INTO checkouts (${columns040.join(', ')}) VALUES (${columns040.map(() => '?').join(', ')})`);
    const own = db.prepare('INSERT INTO service_order_ids (service_order_id, order_id) VALUES (?, ?)');
    for (const record of records) {
      insert.run(...row040(record));
      for (const id of serviceOrderIdsOf(record)) own.run(id, record.orderId);
    }
  } finally {
    db.close();
  }
}

const sqlText = (value: string | number | null) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`);

/** The schema `momo_checkout` in `database` as 0.4.0 created it (migration 1 and its version row), holding `records`. */
export function writePostgresAs040(server: PostgresServer, database: string, records: readonly CheckoutRecord[]): void {
  const rows = records.map((record) => `(${row040(record).map(sqlText).join(', ')})`);
  const owned = records.flatMap((record) => serviceOrderIdsOf(record).map((id) => `(${sqlText(id)}, ${sqlText(record.orderId)})`));
  server.psql(
    `CREATE SCHEMA momo_checkout;
     CREATE TABLE momo_checkout.schema_version (version integer PRIMARY KEY, summary text NOT NULL, applied_by text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
     ${migrations[0]!.sql('momo_checkout')}
     INSERT INTO momo_checkout.schema_version (version, summary, applied_by) VALUES (1, 'v1', 'momo-checkout 0.4.0');
     ${rows.length > 0 ? `INSERT INTO momo_checkout.checkouts (${columns040.join(', ')}) VALUES ${rows.join(', ')};` : ''}
     ${owned.length > 0 ? `INSERT INTO momo_checkout.service_order_ids (service_order_id, order_id) VALUES ${owned.join(', ')};` : ''}`,
    database,
  );
}

/**
 * `records` in Redis under `prefix` as 0.4.0 kept them: written by this version's store (the record
 * keys and payment indexes 0.4.0 wrote too), then the keys and fields 0.4.0 never wrote removed.
 */
export async function writeRedisAs040(url: string, prefix: string, records: readonly CheckoutRecord[]): Promise<void> {
  const writer = await createRedisStore({ url, keyPrefix: prefix, log: silentLogger });
  for (const record of records) await writer.createIfAbsent(record);
  await writer.close?.();
  const raw = await createClient({ url }).connect();
  try {
    for (const key of await raw.keys(`${prefix}counts:*`)) await raw.del(key);
    await raw.del([`${prefix}support`, `${prefix}operators`, `${prefix}support-views`, `${prefix}created`, `${prefix}created-view`]);
    for (const key of await raw.keys(`${prefix}checkout:*`)) await raw.hDel(key, 'operator');
  } finally {
    await raw.quit();
  }
}
