/**
 * The accountant's export as an xlsx workbook (issue 55), written as the rows stream by: a
 * **Totals** sheet (completed payments less completed refunds, per currency) and a **Payments**
 * sheet of the CSV's columns (payments-export.ts), its times date cells (UTC) and its amounts
 * numbers in the currency's decimals; a window past a sheet's 1,048,575 rows goes on in
 * "Payments 2", and so on.
 *
 * Why fflate (0.8.3, pinned): its `Zip` with `ZipDeflate` entries compresses each chunk as it is
 * pushed and hands the bytes on at once, so the file streams a page at a time
 * (export-stream.ts) with memory flat in the window's size; it has no dependencies, no install
 * script and no native code, is maintained (0.8.3, May 2026), and is plain JavaScript that runs
 * the same on Node 22 and 24. The xlsx writers were heavier or not streaming: exceljs 4.4.0 (Dec
 * 2024) pulls in nine packages (archiver, jszip, unzipper, ... some deprecated) and its issue
 * 1894 measures its streaming writer at 300 MB for 500,000 rows; its fork @zurmokeeper/exceljs
 * brings the same tree; write-excel-file builds the whole workbook in memory; xlsx-write-stream
 * sits on archiver 5 (2024). What we write of the format is small (xlsx-parts.ts, xlsx-cells.ts):
 * inline strings, numbers and dates.
 */
import { Zip, ZipDeflate } from 'fflate';
import type { CheckoutRecord } from '../../model/records.js';
import type { ExportEncoder } from '../export-stream.js';
import type { ExportWindow } from '../export-window.js';
import { isoMinorUnits } from '../iso-decimals.js';
import { exportColumns, type ExportColumn, type Paid } from '../payments-export.js';
import { ExportTotals, type CurrencyTotals } from './export-totals.js';
import { columnLetter, dateSerial, rowXml, type XlsxCell } from './xlsx-cells.js';
import { contentTypesXml, packageRelsXml, stylesXml, workbookRelsXml, workbookXml, worksheetEnd, worksheetStart, xlsxStyles, type XlsxSheet } from './xlsx-parts.js';

/** Excel's last row is 1,048,576: a sheet holds its header and this many payments. */
export const maxRowsPerSheet = 1_048_575;

export interface XlsxExportOptions {
  /** Payments per Payments sheet (tests set a few to see the next sheet start). */
  rowsPerSheet?: number;
}

/**
 * Deflate's fastest level: at 100,000 payments (71 MB of XML) level 1 took about 1.1 s of CPU and
 * wrote 9.6 MB, level 6 about 3.5 s for 7.4 MB (measured here): the CPU is the companion's, the
 * bytes a download's.
 */
const level = 1;

const utc = (at: number) => new Date(at).toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace(/Z$/, '');
const fractionLength = (amount: string) => (amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0);

/** The decimals an amount of `record` is shown with: the service's, else ISO 4217's, else the amount's own. */
const decimalsOf = (record: CheckoutRecord) => record.decimalPlaces ?? isoMinorUnits(record.currencyCode) ?? fractionLength(record.amount);

/** The Payments sheet's header: the CSV's names, a time's with its zone. */
const paymentsHeader = exportColumns.map(([name, kind]) => ({ text: kind === 'time' ? `${name} (UTC)` : name, style: xlsxStyles.header }));
const paymentsWidths = exportColumns.map(([name, kind]) => (kind === 'time' ? 20 : kind === 'amount' ? 14 : name === 'order_id' ? 28 : 18));

function paymentCell(column: ExportColumn, record: Paid, amountStyle: number): XlsxCell {
  switch (column[1]) {
    case 'text':
      return { text: column[2](record) };
    case 'time': {
      const at = column[2](record);
      return at === null ? null : { number: dateSerial(at), style: xlsxStyles.dateTime };
    }
    case 'amount':
      return { number: column[2](record), style: amountStyle };
  }
}

const totalsHeader = ['Currency', 'Completed payments', 'Received', 'Refunded', 'Net (received − refunded)', 'Refunds pending', 'Held for support (not counted)', 'Other payments (not counted)'];

/** The Totals sheet: a row per currency, then what each figure counts and the window. */
function totalsSheet(totals: readonly CurrencyTotals[], decimals: ReadonlyMap<string, number>, window: ExportWindow): string {
  const rows = [rowXml(1, totalsHeader.map((text) => ({ text, style: xlsxStyles.header })))];
  for (const [index, total] of totals.entries()) {
    const amount = (value: string) => ({ number: value, style: xlsxStyles.amount(decimals.get(total.currency) ?? 0) });
    const count = (value: number) => ({ number: String(value), style: 0 });
    rows.push(
      rowXml(index + 2, [
        { text: total.currency },
        count(total.completed),
        amount(total.received),
        amount(total.refunded),
        amount(total.net),
        amount(total.refundPending),
        count(total.held),
        count(total.notCompleted),
      ]),
    );
  }
  const notes = [
    `Payments created from ${utc(window.from)} to ${utc(window.to)} (UTC, the end excluded).`,
    'Received: the amounts of the payments whose state is completed. A payment in any other state (pending, failed, ...) is listed on the Payments sheet but brought no money:',
    'to add up the Payments sheet yourself, filter its state column on completed first.',
    'Refunded: the completed refunds of those payments, subtracted in Net. Refunds pending have no outcome yet and are not subtracted.',
    'Held for support: completed with another amount or number than the checkout asked; not counted until the payment service support settles it.',
  ];
  const start = totals.length + 3;
  for (const [index, text] of notes.entries()) rows.push(rowXml(start + index, [{ text }]));
  return worksheetStart([12, 20, 16, 16, 24, 16, 28, 28], false) + rows.join('') + worksheetEnd();
}

/** The xlsx file of the export, for `paymentsExportStream` (export-stream.ts). */
export function xlsxEncoder(window: ExportWindow, options: XlsxExportOptions = {}): ExportEncoder {
  const rowsPerSheet = options.rowsPerSheet ?? maxRowsPerSheet;
  const text = new TextEncoder();
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  // A ZipDeflate entry compresses synchronously as it is pushed: its bytes are in `out` when push returns.
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const take = (): Uint8Array => {
    if (failure) throw failure;
    const bytes = new Uint8Array(out.reduce((size, chunk) => size + chunk.byteLength, 0));
    let at = 0;
    for (const chunk of out) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    out.length = 0;
    return bytes;
  };
  const open = (part: string) => {
    const entry = new ZipDeflate(part, { level });
    zip.add(entry);
    return entry;
  };
  const whole = (part: string, xml: string) => open(part).push(text.encode(xml), true);

  whole('[Content_Types].xml', contentTypesXml);
  whole('_rels/.rels', packageRelsXml);

  const totals = new ExportTotals();
  const currencyDecimals = new Map<string, number>();
  const paymentSheets: XlsxSheet[] = [];
  let sheet: ZipDeflate | null = null;
  let row = 0;

  const closeSheet = () => {
    if (!sheet) return;
    const filter = `A1:${columnLetter(exportColumns.length - 1)}${row}`;
    paymentSheets[paymentSheets.length - 1]!.filter = filter;
    sheet.push(text.encode(worksheetEnd(filter)), true);
    sheet = null;
  };
  const openSheet = () => {
    const number = paymentSheets.length + 1;
    const part = `xl/worksheets/payments${number}.xml`;
    paymentSheets.push({ name: number === 1 ? 'Payments' : `Payments ${number}`, part });
    sheet = open(part);
    row = 1;
    return worksheetStart(paymentsWidths, true) + rowXml(1, paymentsHeader);
  };

  return {
    page(records) {
      let xml = sheet ? '' : openSheet();
      for (const record of records) {
        if (!record.payment) continue;
        if (row > rowsPerSheet) {
          sheet!.push(text.encode(xml));
          closeSheet();
          xml = openSheet();
        }
        const paid = record as Paid;
        const decimals = decimalsOf(paid);
        if (!currencyDecimals.has(paid.currencyCode)) currencyDecimals.set(paid.currencyCode, decimals);
        const amountStyle = xlsxStyles.amount(decimals);
        row++;
        xml += rowXml(row, exportColumns.map((column) => paymentCell(column, paid, amountStyle)));
        totals.add(paid);
      }
      sheet!.push(text.encode(xml));
      return take();
    },
    end() {
      // The stream writes a first page, even an empty one; a caller that did not still gets a Payments sheet.
      if (!sheet) {
        const header = openSheet();
        sheet!.push(text.encode(header));
      }
      closeSheet();
      const totalsPart = 'xl/worksheets/totals.xml';
      whole(totalsPart, totalsSheet(totals.result(), currencyDecimals, window));
      const sheets: XlsxSheet[] = [{ name: 'Totals', part: totalsPart }, ...paymentSheets];
      whole('xl/workbook.xml', workbookXml(sheets));
      whole('xl/_rels/workbook.xml.rels', workbookRelsXml(sheets));
      whole('xl/styles.xml', stylesXml);
      zip.end();
      return take();
    },
  };
}
