/**
 * The accountant's export: one CSV row per payment (its refunds summed on the row), the columns in
 * one list so the header and the cells cannot drift apart. Times are UTC ISO 8601; amounts are the
 * stored decimal strings and their exact sums (contract/money.ts), never floats; the number is
 * masked as everywhere outside the payment itself (never the full number in a file that gets mailed).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { addAmounts } from '../../contract/money.js';
import { redactPhone } from '../../contract/phone.js';
import { finalPaymentStates } from '../../contract/companion.js';
import type { CheckoutRecord, PaymentRecord } from '../model/records.js';
import { unsettledRefundStates } from '../model/support.js';
import { csvByteOrderMark, csvDecimal, csvLine, csvText } from './csv-text.js';

/** A record with its payment: the export lists payments only. */
type Paid = CheckoutRecord & { payment: PaymentRecord };

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

/**
 * The columns, in order: the header's name and the cell of a record. `link_id` is the payment link
 * a payment was made through (empty for the shop's own checkouts).
 */
export const exportColumns: ReadonlyArray<readonly [string, (record: Paid) => string]> = [
  ['created_at', (record) => csvText(iso(record.createdAt))],
  ['finished_at', (record) => csvText(iso(finishedAt(record)))],
  ['order_id', (record) => csvText(record.orderId)],
  ['link_id', (record) => csvText(record.linkId ?? '')],
  ['operator', (record) => csvText(record.payment.operator?.name ?? record.payment.operator?.code ?? '')],
  ['country', (record) => csvText(countryOf(record.payment))],
  ['phone_number_masked', (record) => csvText(redactPhone(record.payment.reportedPhoneNumber ?? record.payment.phoneNumber))],
  ['amount', (record) => csvDecimal(record.amount)],
  ['currency', (record) => csvText(record.currencyCode)],
  ['state', (record) => csvText(record.payment.state)],
  ['amount_refunded', (record) => csvDecimal(addAmounts(refundsIn(record, (state) => state === 'completed').map((refund) => refund.amount)))],
  ['amount_refund_pending', (record) => csvDecimal(addAmounts(refundsIn(record, (state) => unsettledRefundStates.has(state as never)).map((refund) => refund.amount)))],
  ['refund_ids', (record) => csvText((record.refunds ?? []).map((refund) => refund.refundId).join(' '))],
  ['service_order_id', (record) => csvText(record.payment.serviceOrderId)],
  ['transaction_id', (record) => csvText(record.payment.transactionId)],
  ['refund_transaction_ids', (record) => csvText((record.refunds ?? []).flatMap((refund) => (refund.transactionId ? [refund.transactionId] : [])).join(' '))],
];

/** The file's start: the byte order mark and the header row. */
export const exportHeader = csvByteOrderMark + csvLine(exportColumns.map(([name]) => csvText(name)));

/** The row of one record, or '' for a checkout without a payment (never listed by the stores, skipped all the same). */
export function exportRow(record: CheckoutRecord): string {
  if (!record.payment) return '';
  return csvLine(exportColumns.map(([, cell]) => cell(record as Paid)));
}
