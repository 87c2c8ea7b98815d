/**
 * Writes many records at once through a durable store's own row mapping, in one transaction, for
 * the volume cases and the 100,000-payment bench: one create per record costs a transaction each
 * (minutes at that volume on PostgreSQL), and what is measured is the reads, not the seeding.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { CheckoutRecord } from '../../src/server/model/records.js';
import { insertRecordSql, recordValues } from '../../src/server/stores/postgres/postgres-records.js';
import { prepareStatements, recordColumns } from '../../src/server/stores/sqlite/sqlite-statements.js';
import type { CheckoutStore } from '../../src/server/stores/store.js';

/** Inserts `records` into the file store at `path` (opened by the store first, so at its schema), in one transaction. */
export function seedFileStore(path: string, records: readonly CheckoutRecord[]): void {
  const db = new Database(path);
  try {
    const insert = prepareStatements(db).insert;
    db.transaction(() => {
      for (const record of records) insert.run(recordColumns(record));
    })();
  } finally {
    db.close();
  }
}

/** Inserts `records` into the Postgres store's `schema` (migrated by the store first), a thousand rows a statement, in one transaction. */
export async function seedPostgresStore(url: string, schema: string, records: readonly CheckoutRecord[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const single = insertRecordSql(schema);
    const [head, tuple] = [single.slice(0, single.indexOf(' VALUES ')), single.slice(single.indexOf(' VALUES ') + 8)];
    const width = recordValues(records[0]!).length;
    for (let start = 0; start < records.length; start += 1_000) {
      const batch = records.slice(start, start + 1_000);
      const tuples = batch.map((_, row) => tuple.replace(/\$(\d+)/g, (_match, n: string) => `$${row * width + Number(n)}`));
      await client.query(`${head} VALUES ${tuples.join(', ')}`, batch.flatMap((record) => recordValues(record)));
    }
    await client.query('COMMIT');
    // What autovacuum does after a bulk load, done now: the planner's statistics, and the visibility
    // map the counts' index-only scans rely on (reads just after a bulk insert would otherwise visit every row).
    await client.query(`VACUUM ANALYZE ${schema}.checkouts`);
  } finally {
    await client.end();
  }
}

/**
 * Creates `records` through the store's own `createIfAbsent`, `batch` at a time: for the stores
 * whose create is one round trip without a transaction of its own (memory, Redis).
 */
export async function seedThroughStore(store: CheckoutStore, records: readonly CheckoutRecord[], batch = 200): Promise<void> {
  for (let from = 0; from < records.length; from += batch) await Promise.all(records.slice(from, from + batch).map((record) => store.createIfAbsent(record)));
}
