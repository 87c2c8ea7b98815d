/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, a field with a quote, comma or line
 * break quoted and its quotes doubled), for a spreadsheet: UTF-8 behind a byte order mark, without
 * which Excel reads the payers' names and shops' ids as Windows-1252; and every text cell that a
 * spreadsheet would run as a formula neutralised as OWASP's "CSV Injection" page says: a leading
 * apostrophe, so that `=HYPERLINK(...)` in an order id is shown, never run.
 */

/** U+FEFF, the byte order mark that makes Excel read the file as UTF-8. */
export const csvByteOrderMark = '\uFEFF';

/** RFC 4180's line end. */
const lineEnd = '\r\n';

/** What starts a formula in Excel, LibreOffice or Google Sheets (OWASP: = + - @, tab and carriage return). */
const formulaStart = /^[=+\-@\t\r]/;

/** A text cell: neutralised if it would start a formula, and always quoted (OWASP), its quotes doubled. */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = formulaStart.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/**
 * A number cell: a canonical decimal string (contract/money.ts: digits and at most one point),
 * written as it is so the spreadsheet reads a number, never through a float. Anything else is a
 * bug upstream, refused here rather than written where an accountant adds it up.
 */
export function csvDecimal(value: string): string {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new RangeError(`csvDecimal: ${JSON.stringify(value)} is not a decimal amount`);
  return value;
}

/** One CSV record: the cells (each already written by csvText or csvDecimal), then CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.join(',')}${lineEnd}`;
}
