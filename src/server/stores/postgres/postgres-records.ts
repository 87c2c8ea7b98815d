/**
 * How a CheckoutRecord maps to its row in `<schema>.checkouts`: the whole record as json, plus the
 * few columns that are looked up, indexed or listed. The one place to change when a record gains a
 * field that must be queried (a refund held for support, a payment marked for review): add it to
 * `indexedColumns` and a migration in postgres-schema.ts that adds the column, adds it to the type
 * `checkout_write` (migration 7) and replaces `write_checkout` and `write_matching`
 * (postgres-write-functions.ts) with it in their lists; the write functions and the tests' seeding
 * insert follow.
 *
 * And how rows travel to the write functions: as ONE json document per call (`jsonArray`), sent as
 * its UTF-8 bytes. Not as arrays of texts, which `pg` escapes element by element into an array
 * literal, and not as one JavaScript string of the whole batch: a record holding a masked number
 * (`+229••••••••01`, in a merchant notification's payload) makes that string two bytes a character,
 * and joining, measuring and encoding a few hundred kilobytes of it cost the companion about a
 * tenth of its time per notification (issue 43's profile; README).
 */
import { nextDeliveryAt, type CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';

/** Column name → its value for `record`, every column but the record's own json, in the order of the SQL built below. */
function indexedColumns(record: CheckoutRecord): Record<string, string | number | null> {
  return {
    order_id: record.orderId,
    revision: record.revision,
    token_hash: record.tokenHash,
    return_id: record.returnId,
    retain_until: record.retainUntil,
    next_delivery_at: nextDeliveryAt(record),
    payment_state: record.payment?.state ?? null,
    payment_updated_at: record.payment?.updatedAt ?? null,
    ...supportColumns(record),
  };
}

/** Column name → its value for `record`, the record as json text last. */
export function recordColumns(record: CheckoutRecord): Record<string, string | number | null> {
  return { ...indexedColumns(record), record: JSON.stringify(record) };
}

/** The support views' columns (migration 2, postgres-support-views.ts). */
export function supportColumns(record: CheckoutRecord): { payment_operator: string | null; support_at: number | null } {
  return { payment_operator: record.payment ? operatorName(record.payment) : null, support_at: supportSince(record) };
}

const columnNames = Object.keys(recordColumns({ payment: null, deliveries: [] } as unknown as CheckoutRecord));

export function insertRecordSql(schema: string): string {
  const placeholders = columnNames.map((name, index) => (name === 'record' ? `$${index + 1}::json` : `$${index + 1}`));
  return `INSERT INTO ${schema}.checkouts (${columnNames.join(', ')}) VALUES (${placeholders.join(', ')})`;
}

export function recordValues(record: CheckoutRecord): Array<string | number | null> {
  return Object.values(recordColumns(record));
}

/**
 * The row as the write functions read it (json_populate_record, json_populate_recordset): each
 * column by name, then the record as json, stringified once.
 */
export function recordRow(record: CheckoutRecord): string {
  return `${JSON.stringify(indexedColumns(record)).slice(0, -1)},"record":${JSON.stringify(record)}}`;
}

/**
 * One compare-and-set of a batch as migration 7's `compare_and_set_rows` reads it (its type
 * `checkout_write`): its place in the batch, the revision its writer read, the service order ids
 * the record carries, then the row.
 */
export function writeRow(n: number, expected: number, serviceIds: readonly string[], record: CheckoutRecord): string {
  return `{"n":${n},"expected":${expected},"service_ids":${JSON.stringify(serviceIds)},${recordRow(record).slice(1)}`;
}

/**
 * `[item,item,…]` as UTF-8 bytes, for a `$n::json` parameter (`pg` sends a Buffer as it is, and
 * PostgreSQL reads a json parameter's bytes as its text). Each item, a json text, is encoded
 * straight into one buffer: never joined into one string first.
 */
export function jsonArray(items: readonly string[]): Buffer {
  // At most 3 bytes of UTF-8 per UTF-16 unit (a surrogate pair's 4 bytes are 2 units).
  let most = 2;
  for (const item of items) most += item.length * 3 + 1;
  const bytes = Buffer.allocUnsafe(most);
  let at = 0;
  bytes[at++] = 0x5b; // [
  for (const [index, item] of items.entries()) {
    if (index > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(item, at, 'utf8');
  }
  bytes[at++] = 0x5d; // ]
  return bytes.subarray(0, at);
}
