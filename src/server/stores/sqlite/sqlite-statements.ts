/**
 * Every SQL statement the file store runs, prepared once per connection, and the mapping between a
 * `CheckoutRecord` and its row (the record as JSON next to the columns that are looked up or
 * indexed, sqlite-schema.ts). Apart from the store so that the SQL can be read against the schema
 * in one place, and the store's methods read as what they do.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { PaymentState } from '../../../contract/companion.js';
import { nextDeliveryAt, type CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';
import type { SqliteDatabase } from './sqlite-open.js';

/** A better-sqlite3 statement: its bind parameters, and the row it reads. Named here so the declarations can name it. */
type Statement<Parameters extends unknown[] = unknown[], Row = unknown> = BetterSqlite3.Statement<Parameters, Row>;

interface RecordRow {
  record: string;
  retain_until: number;
  revision: number;
}

/** A row's columns beside its record: what a compare-and-set checks, and compares to choose its update (`updateStatements`). */
export interface RowHead {
  revision: number;
  retain_until: number;
  token_hash: string;
  return_id: string;
  next_delivery_at: number | null;
  payment_state: string | null;
  payment_updated_at: number | null;
  payment_operator: string | null;
  support_at: number | null;
}

/** Each statement with its parameters and its row (a row type only for the statements that read). */
export interface FileStoreStatements {
  record: Statement<[string], RecordRow>;
  liveRecord: Statement<[string, number], { record: string }>;
  byTokenHash: Statement<[string, number], { record: string }>;
  byReturnId: Statement<[string, number], { record: string }>;
  /** Whether the order's row is live. */
  liveOrder: Statement<[string, number], { live: 1 }>;
  remove: Statement<[string]>;
  insert: Statement;
  /** The row's columns without its record, for a compare-and-set. */
  head: Statement<[string], RowHead>;
  /** The registry alone, the owner live or not (`liveOrder` says whether it is). */
  registeredOwner: Statement<[string], { order_id: string }>;
  indexServiceOrderId: Statement<[string, string]>;
  lock: Statement<[string], { owner: string; until: number }>;
  setLock: Statement<[string, string, number]>;
  releaseLock: Statement<[string, string]>;
  renewLock: Statement<[number, string, string, number]>;
  inboxEntry: Statement<[string], { done: number; until: number }>;
  addToInbox: Statement<[string, string, number, number]>;
  pendingInbox: Statement<[number], { id: string; raw_body: string; received_at: number }>;
  markInboxDone: Statement<[string]>;
  dueDeliveries: Statement<[number, number, number], { order_id: string }>;
  needingSupport: Statement<[number], { record: string }>;
  paymentsCreated: Statement<[number, number, number, string, number, number], { record: string }>;
  countPayments: Statement<[number, number, number], { operator: string; state: PaymentState; count: number }>;
  sweepCheckouts: Statement<[number]>;
  sweepLocks: Statement<[number]>;
  sweepInbox: Statement<[number]>;
  ping: Statement;
}

export function prepareStatements(db: SqliteDatabase): FileStoreStatements {
  return {
    record: db.prepare('SELECT record, retain_until, revision FROM checkouts WHERE order_id = ?'),
    head: db.prepare(
      `SELECT revision, retain_until, token_hash, return_id, next_delivery_at, payment_state, payment_updated_at, payment_operator, support_at
       FROM checkouts WHERE order_id = ?`,
    ),
    liveRecord: db.prepare('SELECT record FROM checkouts WHERE order_id = ? AND retain_until > ?'),
    byTokenHash: db.prepare('SELECT record FROM checkouts WHERE token_hash = ? AND retain_until > ?'),
    byReturnId: db.prepare('SELECT record FROM checkouts WHERE return_id = ? AND retain_until > ?'),
    liveOrder: db.prepare('SELECT 1 AS live FROM checkouts WHERE order_id = ? AND retain_until > ?'),
    // The registry alone, then the owner's row (`liveOrder`, `liveRecord`): the same answer as one
    // statement joining the two tables, which took twice as long here (35 µs against 16, issue 43).
    registeredOwner: db.prepare('SELECT order_id FROM service_order_ids WHERE service_order_id = ?'),
    remove: db.prepare('DELETE FROM checkouts WHERE order_id = ?'),
    insert: db.prepare(
      `INSERT INTO checkouts (order_id, revision, token_hash, return_id, retain_until, next_delivery_at, payment_state, payment_updated_at, payment_operator, support_at, record)
       VALUES (@orderId, @revision, @tokenHash, @returnId, @retainUntil, @nextDeliveryAt, @paymentState, @paymentUpdatedAt, @paymentOperator, @supportAt, @record)`,
    ),
    indexServiceOrderId: db.prepare(
      'INSERT INTO service_order_ids (service_order_id, order_id) VALUES (?, ?) ON CONFLICT (service_order_id) DO UPDATE SET order_id = excluded.order_id',
    ),
    lock: db.prepare('SELECT owner, until FROM locks WHERE key = ?'),
    setLock: db.prepare('INSERT OR REPLACE INTO locks (key, owner, until) VALUES (?, ?, ?)'),
    releaseLock: db.prepare('DELETE FROM locks WHERE key = ? AND owner = ?'),
    renewLock: db.prepare('UPDATE locks SET until = ? WHERE key = ? AND owner = ? AND until > ?'),
    inboxEntry: db.prepare('SELECT done, until FROM inbox WHERE id = ?'),
    addToInbox: db.prepare('INSERT OR REPLACE INTO inbox (id, raw_body, received_at, done, until) VALUES (?, ?, ?, 0, ?)'),
    pendingInbox: db.prepare(
      'SELECT id, raw_body, received_at FROM inbox WHERE done = 0 ORDER BY received_at, rowid LIMIT ?',
    ),
    // A done entry is only a nonce now: its body is dropped.
    markInboxDone: db.prepare("UPDATE inbox SET done = 1, raw_body = '' WHERE id = ?"),
    dueDeliveries: db.prepare(
      'SELECT order_id FROM checkouts WHERE next_delivery_at <= ? AND retain_until > ? ORDER BY next_delivery_at, rowid LIMIT ?',
    ),
    needingSupport: db.prepare('SELECT record FROM checkouts WHERE support_at IS NOT NULL AND retain_until > ? ORDER BY support_at DESC, rowid DESC'),
    // Through checkouts_payment_created (schema version 3): the expression is written as the index's.
    paymentsCreated: db.prepare(
      `SELECT record FROM checkouts WHERE payment_state IS NOT NULL
       AND json_extract(record, '$.createdAt') >= ? AND json_extract(record, '$.createdAt') < ?
       AND (json_extract(record, '$.createdAt'), order_id) > (?, ?) AND retain_until > ?
       ORDER BY json_extract(record, '$.createdAt'), order_id LIMIT ?`,
    ),
    countPayments: db.prepare(
      `SELECT payment_operator AS operator, payment_state AS state, count(*) AS count FROM checkouts INDEXED BY checkouts_payment_counts
       WHERE payment_state IS NOT NULL AND payment_updated_at >= ? AND payment_updated_at < ? AND retain_until > ? GROUP BY payment_operator, payment_state`,
    ),
    sweepCheckouts: db.prepare('DELETE FROM checkouts WHERE retain_until <= ?'),
    sweepLocks: db.prepare('DELETE FROM locks WHERE until <= ?'),
    sweepInbox: db.prepare('DELETE FROM inbox WHERE done = 1 AND until <= ?'),
    ping: db.prepare('SELECT 1'),
  };
}

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

/** The row's columns for `record` (named parameters of `insert` and of an update, `updateStatements`). */
export const recordColumns = (record: CheckoutRecord) => ({
  orderId: record.orderId,
  revision: record.revision,
  tokenHash: record.tokenHash,
  returnId: record.returnId,
  retainUntil: record.retainUntil,
  nextDeliveryAt: nextDeliveryAt(record),
  paymentState: record.payment?.state ?? null,
  paymentUpdatedAt: record.payment?.updatedAt ?? null,
  ...supportColumns(record),
  record: JSON.stringify(record),
});

/** The support views' columns (sqlite-schema.ts version 2), written with the record. */
export const supportColumns = (record: CheckoutRecord) => ({
  paymentOperator: record.payment ? operatorName(record.payment) : null,
  supportAt: supportSince(record),
});

/** The columns an update may set beside the revision and the record: each with its named parameter. */
const updatableColumns = [
  ['token_hash', 'tokenHash'],
  ['return_id', 'returnId'],
  ['retain_until', 'retainUntil'],
  ['next_delivery_at', 'nextDeliveryAt'],
  ['payment_state', 'paymentState'],
  ['payment_updated_at', 'paymentUpdatedAt'],
  ['payment_operator', 'paymentOperator'],
  ['support_at', 'supportAt'],
] as const;

/**
 * The UPDATE of a compare-and-set, setting only the columns whose value changes (and the revision
 * and record, which always do): SQLite rewrites an index's entry whenever the statement sets one
 * of its columns, even to the value it had, and a row has eight indexes beside its key. A delivery's
 * outcome changes one indexed column, a transition four: the rest were written for nothing (issue
 * 43's figures). Prepared on first use, one per set of columns (a handful occur).
 */
export function updateStatements(db: SqliteDatabase): (current: RowHead, next: ReturnType<typeof recordColumns>) => Statement {
  const prepared = new Map<number, Statement>();
  return (current, next) => {
    let changed = 0;
    updatableColumns.forEach(([column, parameter], index) => {
      if (current[column] !== next[parameter]) changed |= 1 << index;
    });
    let statement = prepared.get(changed);
    if (!statement) {
      const sets = updatableColumns.filter((_, index) => changed & (1 << index)).map(([column, parameter]) => `, ${column} = @${parameter}`);
      statement = db.prepare(`UPDATE checkouts SET revision = @revision${sets.join('')}, record = @record WHERE order_id = @orderId`);
      prepared.set(changed, statement);
    }
    return statement;
  };
}
