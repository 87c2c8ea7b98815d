/**
 * The export as an accountant opens it (issue 44's "done when"): 10,000 payments seeded in a file
 * store, with refunds, non-ASCII names and order ids a spreadsheet would run, exported through the
 * server API as a stream to disk, then opened by LibreOffice Calc headless (Debian's
 * libreoffice-calc-nogui). LibreOffice itself adds the amount and refunded columns per currency
 * (SUMIF rows appended to a copy of the file), and its totals must be the store's to the last
 * minor unit; no cell of the file became a formula, and the payers' characters read back as written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { toMinorUnits } from '../../../src/contract/money.js';
import { exportColumns } from '../../../src/server/payments/payments-export.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { exportRecords, exportTotals, trickyOrderIds } from '../../support/export-records.js';
import { seedFileStore } from '../../support/seed-records.js';
import { startHarness, type Harness } from '../harness.js';

const soffice = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
const serverSecret = 'libreoffice-export-secret-0123456789abcdef';
const payments = 10_000;
const start = Date.UTC(2025, 9, 1);
const decimals: Record<string, number> = { XOF: 0, GHS: 2 };

/**
 * LibreOffice converts `file` to flat ODS XML in `dir`, with a profile of its own (two runs never
 * share one). The import options are the Text Import dialog's: comma, double quote, Unicode (UTF-8)
 * (76), from row 1. Without them, LibreOffice 7.4 headless reads a CSV in the system's 8-bit
 * character set whatever its BOM says (seen here: `Bénin` read as `BÃ©nin`), which a person
 * opening the file never gets: the dialog asks.
 */
async function openInLibreOffice(file: string, dir: string): Promise<string> {
  const args = [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--infilter=CSV:44,34,76,1', '--convert-to', 'fods', '--outdir', dir, file];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(soffice, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => reject(new Error(`${soffice} could not start (${error.message}): install Debian's libreoffice-calc-nogui (scripts/ensure-test-tools.sh), or set SOFFICE_PATH.`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice exited ${code}: ${stderr}`))));
  });
  return readFileSync(file.replace(/\.csv$/, '.fods'), 'utf8');
}

/** The spreadsheet column letter of an export column (A for the first). */
const letter = (name: string) => String.fromCharCode(65 + exportColumns.findIndex(([column]) => column === name));

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
    const [amount, refunded, currency] = [letter('amount'), letter('amount_refunded'), letter('currency')];
    const totalsRow = (code: string) =>
      `"=SUMIF(${currency}2:${currency}${last},""${code}"",${amount}2:${amount}${last})","=SUMIF(${currency}2:${currency}${last},""${code}"",${refunded}2:${refunded}${last})","=COUNTIF(${currency}2:${currency}${last},""${code}"")"\r\n`;
    const withTotals = join(dir, 'with-totals.csv');
    writeFileSync(withTotals, readFileSync(file, 'utf8') + totalsRow('XOF') + totalsRow('GHS'));
    const sheet = await openInLibreOffice(withTotals, dir);

    const formulas = [...sheet.matchAll(/<table:table-cell table:formula="([^"]*)"[^>]*office:value="([^"]*)"/g)];
    assert.equal(formulas.length, 6, `only the six appended formulas are formulas: no exported cell ran (${formulas.map((match) => match[1]).join(' | ')})`);
    const computed = formulas.map((match) => Number(match[2]));
    const expected = exportTotals(inWindow);
    for (const [index, code] of ['XOF', 'GHS'].entries()) {
      const [sumAmount, sumRefunded, rows] = computed.slice(index * 3, index * 3 + 3) as [number, number, number];
      const store = expected.get(code)!;
      const places = decimals[code]!;
      // LibreOffice adds in doubles: rounded to the currency's decimals, its total must be exact.
      assert.equal(BigInt(Math.round(sumAmount * 10 ** places)), toMinorUnits(store.amount, places), `${code} amounts: LibreOffice ${sumAmount}, store ${store.amount}`);
      assert.equal(BigInt(Math.round(sumRefunded * 10 ** places)), toMinorUnits(store.refunded, places), `${code} refunded: LibreOffice ${sumRefunded}, store ${store.refunded}`);
      assert.equal(rows, store.rows, `${code}: every row read as ${code}`);
      t.diagnostic(`${code}: ${rows} payments, ${store.amount} paid, ${store.refunded} refunded`);
    }
    // The payers' characters and the neutralised order ids, as LibreOffice shows them.
    assert.ok(sheet.includes('<text:p>commande-Éloïse-№7-مرحبا</text:p>'), 'UTF-8 read as UTF-8');
    assert.ok(sheet.includes('<text:p>Moov Africa Bénin</text:p>'));
    const asXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
    assert.ok(sheet.includes(`<text:p>${asXml(`'${trickyOrderIds[0]}`)}</text:p>`), 'the formula-looking order id is text, shown with its apostrophe');
  });
});
