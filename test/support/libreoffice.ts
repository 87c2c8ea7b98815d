/**
 * LibreOffice Calc headless (Debian's libreoffice-calc-nogui, scripts/ensure-test-tools.sh) as the
 * export's tests open a file: converted to flat ODS XML, whose cells say what Calc read (a date, a
 * number, text, a formula), and read back table by table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export const soffice = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';

/**
 * Converts `file` to flat ODS XML in `dir` with a profile of its own (two runs never share one), and
 * returns the XML. `infilter` is the import filter's options (the CSV test's Text Import settings).
 */
export async function openInLibreOffice(file: string, dir: string, infilter?: string): Promise<string> {
  const args = [`-env:UserInstallation=file://${mkdtempSync(join(dir, 'profile-'))}`, '--headless', ...(infilter ? [`--infilter=${infilter}`] : []), '--convert-to', 'fods', '--outdir', dir, file];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(soffice, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => reject(new Error(`${soffice} could not start (${error.message}): install Debian's libreoffice-calc-nogui (scripts/ensure-test-tools.sh), or set SOFFICE_PATH.`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice exited ${code}: ${stderr}`))));
  });
  return readFileSync(join(dir, basename(file).replace(/\.[^.]+$/, '.fods')), 'utf8');
}

/** A cell as Calc read it: its type (`float`, `date`, `string`, ... or '' when empty), value, text shown and formula. */
export interface CalcCell {
  type: string;
  value: string;
  text: string;
  formula: string | null;
}

const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');

/** The text a cell shows: its paragraphs, with ODF's tabs, runs of spaces and line breaks spelled out. */
function shown(content: string): string {
  return [...content.matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)]
    .map((paragraph) =>
      unescape(
        paragraph[1]!
          .replaceAll('<text:tab/>', '\t')
          .replaceAll('<text:line-break/>', '\n')
          .replace(/<text:s(?: text:c="(\d+)")?\/>/g, (_, count: string | undefined) => ' '.repeat(Number(count ?? 1)))
          .replace(/<[^>]+>/g, ''),
      ),
    )
    .join('\n');
}

/** The tables of a flat ODS document by name, each a list of rows of cells (repeated cells spelled out, trailing empty ones dropped). */
export function calcTables(fods: string): Map<string, CalcCell[][]> {
  const tables = new Map<string, CalcCell[][]>();
  for (const table of fods.matchAll(/<table:table table:name="([^"]*)"[^>]*>([\s\S]*?)<\/table:table>/g)) {
    const rows: CalcCell[][] = [];
    for (const row of table[2]!.matchAll(/<table:table-row\b[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
      const cells: CalcCell[] = [];
      for (const cell of (row[1] ?? '').matchAll(/<table:(?:covered-)?table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g)) {
        const tag = cell[1]!;
        const type = attribute(tag, 'office:value-type') ?? '';
        const read: CalcCell = {
          type,
          value: attribute(tag, 'office:date-value') ?? attribute(tag, 'office:value') ?? '',
          text: shown(cell[2] ?? ''),
          formula: attribute(tag, 'table:formula') ?? null,
        };
        const repeated = Number(attribute(tag, 'table:number-columns-repeated') ?? 1);
        // Calc pads each row with one empty cell repeated to the sheet's last column: not spelled out.
        for (let n = 0; n < (type === '' ? Math.min(repeated, 64) : repeated); n++) cells.push(read);
      }
      while (cells.length > 0 && cells[cells.length - 1]!.type === '') cells.pop();
      rows.push(cells);
    }
    while (rows.length > 0 && rows[rows.length - 1]!.length === 0) rows.pop();
    tables.set(table[1]!, rows);
  }
  return tables;
}
