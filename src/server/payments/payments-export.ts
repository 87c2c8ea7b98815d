/**
 * The accountant's export: one row per payment (its refunds summed on the row), the columns in one
 * list so the header and the cells cannot drift apart, each with its kind (text, time, amount) so
 * the CSV and the xlsx file (xlsx/xlsx-export.ts) write the same values each in its own way. Times
 * are UTC (ISO 8601 in the CSV); amounts are the stored decimal strings and their exact sums
 * (contract/money.ts), never floats; the number is masked as everywhere outside the payment itself
 * (never the full number in a file that gets mailed).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { addAmounts } from '../../contract/money.js';
import { redactPhone } from '../../contract/phone.js';
import { finalPaymentStates } from '../../contract/companion.js';
import type { CheckoutRecord, PaymentRecord } from '../model/records.js';
import { unsettledRefundStates } from '../model/support.js';
import { csvByteOrderMark, csvDecimal, csvLine, csvText } from './csv-text.js';

/** A record with its payment: the export lists payments only. */
export type Paid = CheckoutRecord & { payment: PaymentRecord };

const iso = (at: number | null) => (at === null ? '' : new Date(at).toISOString());

/** When the payment reached `completed` or `failed` (its timeline's first final state), or null while open. */
export function finishedAt(record: Paid): number | null {
  if (!finalPaymentStates.includes(record.payment.state)) return null;
  const reached = (record.timeline ?? []).find((entry) => entry.kind === 'state' && entry.attempt === record.payment.attempt && finalPaymentStates.includes(entry.state));
  return reached?.at ?? record.payment.updatedAt;
}

/**
 * Countries by number without its last four digits: a country is told by the calling code and the
 * leading digits, never the last four, and parsing with the full metadata was most of a row's cost
 * (0.17 of 0.24 ms). Bounded: emptied when full.
 */
const countries = new Map<string, string>();

/** The ISO 3166 country of the number that paid (from its calling code and prefix), or '' when unknown. */
function countryOf(payment: PaymentRecord): string {
  const number = payment.reportedPhoneNumber ?? payment.phoneNumber;
  const prefix = number.slice(0, -4);
  let country = countries.get(prefix);
  if (country === undefined) {
    if (countries.size >= 10_000) countries.clear();
    country = parsePhoneNumberFromString(number)?.country ?? '';
    countries.set(prefix, country);
  }
  return country;
}

const refundsIn = (record: Paid, settled: (state: string) => boolean) => (record.refunds ?? []).filter((refund) => settled(refund.state));

/** What a column holds: text, a time (epoch ms, or null while unknown), or an amount (a canonical decimal string). */
export type ExportColumn =
  | readonly [name: string, kind: 'text', value: (record: Paid) => string]
  | readonly [name: string, kind: 'time', value: (record: Paid) => number | null]
  | readonly [name: string, kind: 'amount', value: (record: Paid) => string];

/** The completed refunds of a record, summed: what went back to the payer. */
export const refundedAmount = (record: Paid) => addAmounts(refundsIn(record, (state) => state === 'completed').map((refund) => refund.amount));

/** The refunds without an outcome yet, summed. */
export const refundPendingAmount = (record: Paid) => addAmounts(refundsIn(record, (state) => unsettledRefundStates.has(state as never)).map((refund) => refund.amount));

/**
 * The columns, in order: the header's name, the kind and the value of a record. `link_id` is the
 * payment link a payment was made through (empty for the shop's own checkouts).
 */
export const exportColumns: readonly ExportColumn[] = [
  ['created_at', 'time', (record) => record.createdAt],
  ['finished_at', 'time', finishedAt],
  ['order_id', 'text', (record) => record.orderId],
  ['link_id', 'text', (record) => record.linkId ?? ''],
  ['operator', 'text', (record) => record.payment.operator?.name ?? record.payment.operator?.code ?? ''],
  ['country', 'text', (record) => countryOf(record.payment)],
  ['phone_number_masked', 'text', (record) => redactPhone(record.payment.reportedPhoneNumber ?? record.payment.phoneNumber)],
  ['amount', 'amount', (record) => record.amount],
  ['currency', 'text', (record) => record.currencyCode],
  ['state', 'text', (record) => record.payment.state],
  ['amount_refunded', 'amount', refundedAmount],
  ['amount_refund_pending', 'amount', refundPendingAmount],
  ['refund_ids', 'text', (record) => (record.refunds ?? []).map((refund) => refund.refundId).join(' ')],
  ['service_order_id', 'text', (record) => record.payment.serviceOrderId],
  ['transaction_id', 'text', (record) => record.payment.transactionId ?? ''],
  ['refund_transaction_ids', 'text', (record) => (record.refunds ?? []).flatMap((refund) => (refund.transactionId ? [refund.transactionId] : [])).join(' ')],
];

/** A CSV cell of a column: times as UTC ISO 8601, amounts unquoted as they are stored. */
function csvCell(column: ExportColumn, record: Paid): string {
  switch (column[1]) {
    case 'text':
      return csvText(column[2](record));
    case 'time':
      return csvText(iso(column[2](record)));
    case 'amount':
      return csvDecimal(column[2](record));
  }
}

/** The CSV file's start: the byte order mark and the header row. */
export const exportHeader = csvByteOrderMark + csvLine(exportColumns.map(([name]) => csvText(name)));

/** The CSV row of one record, or '' for a checkout without a payment (never listed by the stores, skipped all the same). */
export function exportRow(record: CheckoutRecord): string {
  if (!record.payment) return '';
  return csvLine(exportColumns.map((column) => csvCell(column, record as Paid)));
}
