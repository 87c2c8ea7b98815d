/**
 * How a CheckoutRecord maps to its row in `<schema>.checkouts`: the whole record as json, plus the
 * few columns that are looked up, indexed or listed. The one place to change when a record gains a
 * field that must be queried (a refund held for support, a payment marked for review): add it to
 * `recordColumns` and a migration in postgres-schema.ts that adds the column and replaces
 * `write_checkout` (postgres-write-functions.ts) with it in its list; the write functions and the
 * tests' seeding insert follow.
 */
import { nextDeliveryAt, type CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';

/** Column name → its value for `record`, in the order of the SQL built below. */
export function recordColumns(record: CheckoutRecord): Record<string, string | number | null> {
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
    record: JSON.stringify(record),
  };
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

/** The row as the write functions read it (json_populate_record): each column by name, the record as json. */
export function recordRow(record: CheckoutRecord): string {
  return JSON.stringify({ ...recordColumns(record), record });
}
