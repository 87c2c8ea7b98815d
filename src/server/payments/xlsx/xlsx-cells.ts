/**
 * The cells of a SpreadsheetML worksheet (ECMA-376 part 1, §18.3.1) as XML text, written one row at
 * a time. Text is an inline string (`t="inlineStr"`), never a formula and never a shared string: a
 * shared-strings table would hold every distinct text of the file in memory until its end. Numbers
 * are written from their decimal text as it is (an amount never goes through a float here); times
 * are date serials (days since 1899-12-30, UTC) under a date-time format.
 */

/** A cell's value and its style (an index into styles.xml's cellXfs, xlsx-parts.ts). */
export type XlsxCell =
  | { text: string; style?: number }
  /** A number as decimal text: `12500`, `0.25`, `-3`. */
  | { number: string; style: number }
  | null;

/** `A` for 0, `Z` for 25, `AA` for 26. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

// XML 1.0 refuses C0 controls other than tab, line feed and carriage return, lone surrogates and
// U+FFFE/U+FFFF; OOXML writes such a character as `_xHHHH_` (ST_Xstring), and so a literal
// `_x0041_` in the text has its underscore written `_x005F_` to be read back as typed.
const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const literalEscape = /_(?=x[0-9A-Fa-f]{4}_)/g;
const xmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Anything xmlText changes: most cells have none, and skip its three replacements. */
const needsEscape = /[&<>"_\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Text as XML character data (and attribute values), with OOXML's escape for what XML cannot hold. */
export function xmlText(value: string): string {
  if (!needsEscape.test(value)) return value;
  return value
    .replace(literalEscape, '_x005F_')
    .replace(notXml, (char) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(/[&<>"]/g, (char) => xmlEntities[char]!);
}

/** A canonical or signed decimal, the only text a number cell takes. */
const decimal = /^-?\d+(\.\d+)?$/;

/** The date serial of an instant: days since 1899-12-30 00:00 UTC (1970-01-01 is 25569), to the millisecond. */
export function dateSerial(at: number): string {
  return String(25_569 + at / 86_400_000);
}

/** One `<c>`: `r` is its reference (`B7`). An empty text or a null writes no cell. */
function cellXml(cell: XlsxCell, reference: string): string {
  if (cell === null) return '';
  const style = cell.style ? ` s="${cell.style}"` : '';
  if ('number' in cell) {
    if (!decimal.test(cell.number)) throw new RangeError(`xlsx: ${JSON.stringify(cell.number)} is not a decimal number`);
    return `<c r="${reference}"${style}><v>${cell.number}</v></c>`;
  }
  if (cell.text === '') return '';
  // Leading or trailing spaces (or a tab) are kept only when the element says so.
  const space = /^\s|\s$/.test(cell.text) ? ' xml:space="preserve"' : '';
  return `<c r="${reference}"${style} t="inlineStr"><is><t${space}>${xmlText(cell.text)}</t></is></c>`;
}

const letters = Array.from({ length: 64 }, (_, index) => columnLetter(index));

/** One `<row>` (1-based `row`), its cells from column A. */
export function rowXml(row: number, cells: readonly XlsxCell[]): string {
  let xml = `<row r="${row}">`;
  for (let index = 0; index < cells.length; index++) xml += cellXml(cells[index]!, `${letters[index] ?? columnLetter(index)}${row}`);
  return `${xml}</row>`;
}
