/**
 * The Postgres store's support views (model/support.ts): two columns of `<schema>.checkouts`
 * written with the record (postgres-records.ts), their indexes (migration 2, postgres-schema.ts),
 * the fill of rows written before them, and the two reads.
 */
import type { Pool, PoolClient } from 'pg';
import type { PaymentState } from '../../../contract/companion.js';
import type { CheckoutRecord } from '../../model/records.js';
import type { PaymentCount } from '../../model/support.js';
import type { CreatedPaymentsPage } from '../store.js';
import { keepableText, parseStoredRecord, restoredText, supportColumns } from './postgres-records.js';

const page = 1_000;

/** Fills `payment_operator` and `support_at` of the rows a 0.4.0 companion wrote (inside migration 2's transaction). */
export async function fillSupportViews(client: PoolClient, s: string): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await client.query<{ order_id: string; record: CheckoutRecord }>(
      `SELECT order_id, record FROM ${s}.checkouts WHERE payment_state IS NOT NULL AND order_id > $1 ORDER BY order_id LIMIT ${page}`,
      [after],
    );
    if (rows.rows.length === 0) return;
    const columns = rows.rows.map((row) => supportColumns(row.record));
    await client.query(
      `UPDATE ${s}.checkouts c SET payment_operator = v.operator, support_at = v.support_at
       FROM unnest($1::text[], $2::text[], $3::bigint[]) AS v (order_id, operator, support_at) WHERE c.order_id = v.order_id`,
      // 0.4.0 wrote a record's json as given, so an operator's name may hold a NUL: kept as the store keeps it (postgres-records.ts).
      [rows.rows.map((row) => row.order_id), columns.map((column) => column.payment_operator && keepableText(column.payment_operator)), columns.map((column) => column.support_at)],
    );
    after = rows.rows[rows.rows.length - 1]!.order_id;
  }
}

/** `listNeedingSupport`, `countPayments` and the export's `listPaymentsCreated` of the store in schema `s`. */
export function supportViewReads(pool: Pool, s: string, now: () => number) {
  return {
    async listNeedingSupport(): Promise<CheckoutRecord[]> {
      const result = await pool.query<{ record: string }>(
        `SELECT record::text AS record FROM ${s}.checkouts WHERE support_at IS NOT NULL AND retain_until > $1 ORDER BY support_at DESC, order_id DESC`,
        [now()],
      );
      return result.rows.map((row) => parseStoredRecord(row.record));
    },
    async listPaymentsCreated(page: CreatedPaymentsPage): Promise<CheckoutRecord[]> {
      // Without a cursor, one just before the window: every row of it is after (from - 1, '').
      const after = page.after ?? { createdAt: page.from - 1, orderId: '' };
      const created = `((record->>'createdAt')::bigint)`; // as written in checkouts_payment_created (migration 3)
      const result = await pool.query<{ record: string }>(
        `SELECT record::text AS record FROM ${s}.checkouts WHERE payment_state IS NOT NULL AND ${created} >= $1 AND ${created} < $2
         AND (${created}, order_id) > ($3::bigint, $4::text) AND retain_until > $5 ORDER BY ${created}, order_id LIMIT $6`,
        [page.from, page.to, after.createdAt, after.orderId, now(), page.limit],
      );
      return result.rows.map((row) => parseStoredRecord(row.record));
    },
    async countPayments(from: number, to: number): Promise<PaymentCount[]> {
      const result = await pool.query<{ operator: string; state: PaymentState; count: string }>(
        `SELECT payment_operator AS operator, payment_state AS state, count(*) AS count FROM ${s}.checkouts
         WHERE payment_state IS NOT NULL AND payment_updated_at >= $1 AND payment_updated_at < $2 AND retain_until > $3 GROUP BY 1, 2`,
        [from, to, now()],
      );
      return result.rows.map((row) => ({ operator: restoredText(row.operator), state: row.state, count: Number(row.count) }));
    },
  };
}
