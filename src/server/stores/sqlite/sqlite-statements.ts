/**
 * Every SQL statement the file store runs, prepared once per connection, and the mapping between a
 * `CheckoutRecord` and its row (the record as JSON next to the columns that are looked up or
 * indexed, sqlite-schema.ts). Apart from the store so that the SQL can be read against the schema
 * in one place, and the store's methods read as what they do.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { nextDeliveryAt, type CheckoutRecord } from '../../model/records.js';
import type { SqliteDatabase } from './sqlite-open.js';

interface RecordRow {
  record: string;
  retain_until: number;
  revision: number;
}

export function prepareStatements(db: SqliteDatabase) {
  return {
    record: db.prepare<[string], RecordRow>('SELECT record, retain_until, revision FROM checkouts WHERE order_id = ?'),
    liveRecord: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE order_id = ? AND retain_until > ?'),
    byTokenHash: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE token_hash = ? AND retain_until > ?'),
    byReturnId: db.prepare<[string, number], { record: string }>('SELECT record FROM checkouts WHERE return_id = ? AND retain_until > ?'),
    byServiceOrderId: db.prepare<[string, number], { record: string; order_id: string }>(
      'SELECT c.record, c.order_id FROM service_order_ids s JOIN checkouts c ON c.order_id = s.order_id WHERE s.service_order_id = ? AND c.retain_until > ?',
    ),
    remove: db.prepare<[string]>('DELETE FROM checkouts WHERE order_id = ?'),
    insert: db.prepare(
      `INSERT INTO checkouts (order_id, revision, token_hash, return_id, retain_until, next_delivery_at, payment_state, payment_updated_at, record)
       VALUES (@orderId, @revision, @tokenHash, @returnId, @retainUntil, @nextDeliveryAt, @paymentState, @paymentUpdatedAt, @record)`,
    ),
    update: db.prepare(
      `UPDATE checkouts SET revision = @revision, token_hash = @tokenHash, return_id = @returnId, retain_until = @retainUntil,
       next_delivery_at = @nextDeliveryAt, payment_state = @paymentState, payment_updated_at = @paymentUpdatedAt, record = @record
       WHERE order_id = @orderId`,
    ),
    indexServiceOrderId: db.prepare<[string, string]>(
      'INSERT INTO service_order_ids (service_order_id, order_id) VALUES (?, ?) ON CONFLICT (service_order_id) DO UPDATE SET order_id = excluded.order_id',
    ),
    lock: db.prepare<[string], { owner: string; until: number }>('SELECT owner, until FROM locks WHERE key = ?'),
    setLock: db.prepare<[string, string, number]>('INSERT OR REPLACE INTO locks (key, owner, until) VALUES (?, ?, ?)'),
    releaseLock: db.prepare<[string, string]>('DELETE FROM locks WHERE key = ? AND owner = ?'),
    inboxEntry: db.prepare<[string], { done: number; until: number }>('SELECT done, until FROM inbox WHERE id = ?'),
    addToInbox: db.prepare<[string, string, number, number]>('INSERT OR REPLACE INTO inbox (id, raw_body, received_at, done, until) VALUES (?, ?, ?, 0, ?)'),
    pendingInbox: db.prepare<[number], { id: string; raw_body: string; received_at: number }>(
      'SELECT id, raw_body, received_at FROM inbox WHERE done = 0 ORDER BY received_at, rowid LIMIT ?',
    ),
    // A done entry is only a nonce now: its body is dropped.
    markInboxDone: db.prepare<[string]>("UPDATE inbox SET done = 1, raw_body = '' WHERE id = ?"),
    dueDeliveries: db.prepare<[number, number, number], { order_id: string }>(
      'SELECT order_id FROM checkouts WHERE next_delivery_at <= ? AND retain_until > ? ORDER BY next_delivery_at, rowid LIMIT ?',
    ),
    sweepCheckouts: db.prepare<[number]>('DELETE FROM checkouts WHERE retain_until <= ?'),
    sweepLocks: db.prepare<[number]>('DELETE FROM locks WHERE until <= ?'),
    sweepInbox: db.prepare<[number]>('DELETE FROM inbox WHERE done = 1 AND until <= ?'),
    ping: db.prepare('SELECT 1'),
  };
}

export type FileStoreStatements = ReturnType<typeof prepareStatements>;

/** listPayments's statement for one shape of query (how many states, which dates, which order), prepared on first use. */
export type ListStatement = (stateCount: number | null, before: boolean, after: boolean, newestFirst: boolean) => BetterSqlite3.Statement<unknown[], { record: string }>;

export function createListStatements(db: SqliteDatabase): ListStatement {
  const listStatements = new Map<string, ReturnType<ListStatement>>();
  return (stateCount, before, after, newestFirst) => {
    const shape = `${stateCount}:${before}:${after}:${newestFirst}`;
    let statement = listStatements.get(shape);
    if (!statement) {
      const states = stateCount === null ? '' : ` AND payment_state IN (${Array(stateCount).fill('?').join(', ')})`;
      const dates = `${before ? ' AND payment_updated_at <= ?' : ''}${after ? ' AND payment_updated_at >= ?' : ''}`;
      const order = newestFirst ? 'payment_updated_at DESC, rowid DESC' : 'payment_updated_at, rowid';
      statement = db.prepare<unknown[], { record: string }>(
        `SELECT record FROM checkouts WHERE payment_state IS NOT NULL${states}${dates} AND retain_until > ? ORDER BY ${order} LIMIT ?`,
      );
      listStatements.set(shape, statement);
    }
    return statement;
  };
}

export const parseRecord = (json: string) => JSON.parse(json) as CheckoutRecord;

/** The row's columns for `record` (named parameters of `insert` and `update`). */
export const recordColumns = (record: CheckoutRecord) => ({
  orderId: record.orderId,
  revision: record.revision,
  tokenHash: record.tokenHash,
  returnId: record.returnId,
  retainUntil: record.retainUntil,
  nextDeliveryAt: nextDeliveryAt(record),
  paymentState: record.payment?.state ?? null,
  paymentUpdatedAt: record.payment?.updatedAt ?? null,
  record: JSON.stringify(record),
});
