/**
 * The export as an accountant opens it (issue 44's "done when"): 10,000 payments seeded in a file
 * store, with refunds, non-ASCII names and order ids a spreadsheet would run, exported through the
 * server API as a stream to disk, then opened by LibreOffice Calc headless (Debian's
 * libreoffice-calc-nogui). LibreOffice itself adds the amount and refunded columns per currency
 * (SUMIF rows appended to a copy of the file), and its totals must be the store's to the last
 * minor unit, and the amounts of the completed rows alone (the merchant guide's advice, issue 55)
 * what was received; no cell of the file became a formula, and the payers' characters read back
 * as written.
 *
 * The xlsx workbook of the same window (issue 55), opened with no option at all: Calc must read
 * the times as dates (UTC, to the second), the amounts as numbers shown in the currency's
 * decimals, the masked numbers and names as written, no formula anywhere, and a Totals sheet whose
 * figures are the completed payments less their completed refunds, to the last minor unit; the
 * amounts it read on the Payments sheet, added over the completed rows, give the same.
 */
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { toMinorUnits } from '../../../src/contract/money.js';
import { redactPhone } from '../../../src/contract/phone.js';
import { exportColumns } from '../../../src/server/payments/payments-export.js';
import { xlsxContentType } from '../../../src/server/payments/xlsx/xlsx-parts.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { exportRecords, exportTotals, receivedTotals, trickyOrderIds } from '../../support/export-records.js';
import { calcTables, openInLibreOffice, type CalcCell } from '../../support/libreoffice.js';
import { seedFileStore } from '../../support/seed-records.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'libreoffice-export-secret-0123456789abcdef';
const payments = 10_000;
const start = Date.UTC(2025, 9, 1);
const decimals: Record<string, number> = { XOF: 0, GHS: 2 };

/**
 * The import options are the Text Import dialog's: comma, double quote, Unicode (UTF-8) (76), from
 * row 1. Without them, LibreOffice 7.4 headless reads a CSV in the system's 8-bit character set
 * whatever its BOM says (seen here: `Bénin` read as `BÃ©nin`), which a person opening the file
 * never gets: the dialog asks (docs/merchant-guide.md says which to choose).
 */
const csvImport = 'CSV:44,34,76,1';

/** The index of an export column (0 for the first). */
const column = (name: string) => exportColumns.findIndex(([named]) => named === name);
/** A number Calc read, in minor units: it holds doubles, and each amount rounds back to its decimals. */
const minor = (cell: CalcCell | undefined, places: number) => BigInt(Math.round(Number(cell?.value) * 10 ** places));

/** The spreadsheet column letter of an export column (A for the first). */
const letter = (name: string) => String.fromCharCode(65 + column(name));

describe('the 10,000-payment export, opened by LibreOffice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'momo-export-lo-'));
  const path = join(dir, 'store.sqlite');
  const records = exportRecords('lo-export', payments, start);
  let h: Harness;
  before(async () => {
    await createFileStore({ path }).close?.();
    seedFileStore(path, records);
    h = await startHarness({ serverSecret, store: createFileStore({ path }), setupChecksAtStart: false });
  });
  after(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("streams the file to disk, and LibreOffice's totals per currency are the store's", { timeout: 240_000 }, async (t) => {
    const file = join(dir, 'payments.csv');
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const response = await fetch(`${h.base}/server/payments?from=2025-10-01&to=2025-11-01`, { headers: { authorization: `Bearer ${serverSecret}`, accept: 'text/csv' } });
    assert.equal(response.status, 200);
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', () => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)));
    await pipeline(body, createWriteStream(file));
    t.diagnostic(`heap growth during the export of ${payments} payments: ${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB (server and client in one process)`);

    const inWindow = records.filter((record) => record.createdAt < Date.UTC(2025, 10, 1));
    assert.ok(inWindow.length > 9_000 && inWindow.length === payments, 'the window holds the seeded payments');
    const lines = readFileSync(file, 'utf8').split('\r\n').length - 2;
    assert.equal(lines, inWindow.length, 'one row per payment under the header');

    // LibreOffice adds up the columns itself: SUMIF rows appended to a copy (the export never writes formulas).
    const last = inWindow.length + 1;
    const [amount, refunded, currency, state] = [letter('amount'), letter('amount_refunded'), letter('currency'), letter('state')];
    // The column sums, and what the merchant guide says to add: the amounts of the completed rows (issue 55).
    const totalsRow = (code: string) =>
      `"=SUMIF(${currency}2:${currency}${last},""${code}"",${amount}2:${amount}${last})","=SUMIF(${currency}2:${currency}${last},""${code}"",${refunded}2:${refunded}${last})","=COUNTIF(${currency}2:${currency}${last},""${code}"")",` +
      `"=SUMIFS(${amount}2:${amount}${last},${currency}2:${currency}${last},""${code}"",${state}2:${state}${last},""completed"")"\r\n`;
    const withTotals = join(dir, 'with-totals.csv');
    writeFileSync(withTotals, readFileSync(file, 'utf8') + totalsRow('XOF') + totalsRow('GHS'));
    const sheet = await openInLibreOffice(withTotals, dir, csvImport);

    const formulas = [...sheet.matchAll(/<table:table-cell table:formula="([^"]*)"[^>]*office:value="([^"]*)"/g)];
    assert.equal(formulas.length, 8, `only the eight appended formulas are formulas: no exported cell ran (${formulas.map((match) => match[1]).join(' | ')})`);
    const computed = formulas.map((match) => Number(match[2]));
    const expected = exportTotals(inWindow);
    const received = receivedTotals(inWindow);
    for (const [index, code] of ['XOF', 'GHS'].entries()) {
      const [sumAmount, sumRefunded, rows, sumCompleted] = computed.slice(index * 4, index * 4 + 4) as [number, number, number, number];
      const store = expected.get(code)!;
      const places = decimals[code]!;
      // LibreOffice adds in doubles: rounded to the currency's decimals, its total must be exact.
      assert.equal(BigInt(Math.round(sumAmount * 10 ** places)), toMinorUnits(store.amount, places), `${code} amounts: LibreOffice ${sumAmount}, store ${store.amount}`);
      assert.equal(BigInt(Math.round(sumRefunded * 10 ** places)), toMinorUnits(store.refunded, places), `${code} refunded: LibreOffice ${sumRefunded}, store ${store.refunded}`);
      assert.equal(rows, store.rows, `${code}: every row read as ${code}`);
      assert.equal(BigInt(Math.round(sumCompleted * 10 ** places)), received.get(code)!.received, `${code} received (completed rows): LibreOffice ${sumCompleted}`);
      assert.ok(sumCompleted < sumAmount, `${code}: the whole column counts payments that brought nothing`);
      t.diagnostic(`${code}: ${rows} payments, ${store.amount} paid, ${store.refunded} refunded`);
    }
    // The payers' characters and the neutralised order ids, as LibreOffice shows them.
    assert.ok(sheet.includes('<text:p>commande-Éloïse-№7-مرحبا</text:p>'), 'UTF-8 read as UTF-8');
    assert.ok(sheet.includes('<text:p>Moov Africa Bénin</text:p>'));
    const asXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
    assert.ok(sheet.includes(`<text:p>${asXml(`'${trickyOrderIds[0]}`)}</text:p>`), 'the formula-looking order id is text, shown with its apostrophe');
  });

  it('as xlsx, opened with no option: dates as dates, amounts as numbers in the currency decimals, and the true totals', { timeout: 240_000 }, async (t) => {
    const file = join(dir, 'payments.xlsx');
    const response = await fetch(`${h.base}/server/payments?from=2025-10-01&to=2025-11-01`, { headers: { authorization: `Bearer ${serverSecret}`, accept: xlsxContentType } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), xlsxContentType);
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="payments-2025-10-01-2025-11-01.xlsx"');
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(file));

    const fods = await openInLibreOffice(file, dir);
    assert.doesNotMatch(fods, /table:formula=/, 'no cell of the file is a formula');
    const tables = calcTables(fods);
    assert.deepEqual([...tables.keys()], ['Totals', 'Payments'], 'the Totals sheet first, then the payments');
    const rows = tables.get('Payments')!;
    assert.deepEqual(
      rows[0]!.map((cell) => cell.text),
      exportColumns.map(([name, kind]) => (kind === 'time' ? `${name} (UTC)` : name)),
    );
    const body = rows.slice(1);
    assert.equal(body.length, payments, 'one row per payment under the header');

    // Dates: Calc read each creation time as a date, the same second as the store's (UTC).
    const created = body.map((row) => row[column('created_at')]!);
    assert.ok(
      created.every((cell) => cell.type === 'date'),
      `every created_at is a date cell (${created.find((cell) => cell.type !== 'date')?.type})`,
    );
    const asCalc = (at: number) => new Date(at).toISOString().replace(/\.000Z$/, '').replace(/T00:00:00$/, '');
    assert.deepEqual(created.map((cell) => cell.value).sort(), records.map((record) => asCalc(record.createdAt)).sort());
    assert.match(created[1]!.text, /^2025-10-01 00:00:01$/, 'shown as yyyy-mm-dd hh:mm:ss');

    // Amounts: numbers, shown in the currency's decimals; Calc's own values add up, over the completed rows, to the money received.
    const [amount, currency, state, refunded] = [column('amount'), column('currency'), column('state'), column('amount_refunded')];
    const fromCalc = new Map<string, { received: bigint; refunded: bigint; completed: number }>();
    for (const row of body) {
      assert.equal(row[amount]!.type, 'float', `an amount is a number: ${JSON.stringify(row[amount])}`);
      const code = row[currency]!.text;
      const places = decimals[code]!;
      assert.match(row[amount]!.text, places === 0 ? /^\d{1,3}(,\d{3})*$/ : /^\d{1,3}(,\d{3})*\.\d{2}$/, `${code} shown with ${places} decimals: ${row[amount]!.text}`);
      if (row[state]!.text !== 'completed') continue;
      const sum = fromCalc.get(code) ?? { received: 0n, refunded: 0n, completed: 0 };
      fromCalc.set(code, { received: sum.received + minor(row[amount], places), refunded: sum.refunded + minor(row[refunded], places), completed: sum.completed + 1 });
    }
    const expected = receivedTotals(records);
    assert.deepEqual(fromCalc, expected, 'the Payments sheet, filtered on completed, adds up to what was received');

    // The Totals sheet: a row per currency, as numbers, equal to the completed payments less their completed refunds.
    const totals = tables.get('Totals')!;
    assert.deepEqual(totals[0]!.slice(0, 5).map((cell) => cell.text), ['Currency', 'Completed payments', 'Received', 'Refunded', 'Net (received − refunded)']);
    for (const row of totals.slice(1, 3)) {
      const code = row[0]!.text;
      const places = decimals[code]!;
      const want = expected.get(code)!;
      assert.ok(row.slice(1).every((cell) => cell.type === 'float'), `${code}: the totals are numbers`);
      assert.equal(Number(row[1]!.value), want.completed, `${code}: completed payments`);
      assert.equal(minor(row[2], places), want.received, `${code} received: Calc ${row[2]!.value}`);
      assert.equal(minor(row[3], places), want.refunded, `${code} refunded: Calc ${row[3]!.value}`);
      assert.equal(minor(row[4], places), want.received - want.refunded, `${code} net: Calc ${row[4]!.value}`);
      const notCompleted = body.filter((cells) => cells[currency]!.text === code && cells[state]!.text !== 'completed').length;
      assert.ok(notCompleted > 0, `${code}: the window holds payments that are not completed`);
      assert.equal(Number(row[7]!.value), notCompleted, `${code}: the other payments are counted apart`);
      t.diagnostic(`${code}: ${want.completed} completed, received ${row[2]!.text}, refunded ${row[3]!.text}, net ${row[4]!.text}; ${notCompleted} not completed`);
    }

    // Text as written: the payers' characters, the masked number (no apostrophe needed: a text cell is never run).
    const orders = body.map((row) => row[column('order_id')]!.text);
    for (const tricky of trickyOrderIds) assert.ok(orders.includes(tricky), `order id ${JSON.stringify(tricky)} read back as written`);
    assert.ok(body.some((row) => row[column('operator')]!.text === 'Moov Africa Bénin'));
    const masked = body.map((row) => row[column('phone_number_masked')]!);
    assert.ok(masked.every((cell) => cell.type === 'string'));
    assert.ok(masked.map((cell) => cell.text).includes(redactPhone(records[1]!.payment!.phoneNumber)), 'the masked number as the payer sees it');
  });
});
