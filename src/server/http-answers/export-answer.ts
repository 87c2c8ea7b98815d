/**
 * The accountant's export said over HTTP, one answer for both ways in: the server API's
 * `GET /payments` asked with `Accept: text/csv` (or the xlsx type), and the console's download
 * (`format=xlsx` for the workbook). A CSV file or an xlsx workbook streamed from the store
 * (payments/export-stream.ts, payments/xlsx/xlsx-export.ts), named by its window, never cached. A
 * bad window throws an {@link ExportWindowError}, which each way in answers in its own error shape.
 */
import type { Logger } from '../log.js';
import { csvEncoder, paymentsExportStream } from '../payments/export-stream.js';
import { exportWindow, type ExportWindow } from '../payments/export-window.js';
import { xlsxEncoder } from '../payments/xlsx/xlsx-export.js';
import { xlsxContentType } from '../payments/xlsx/xlsx-parts.js';
import type { CheckoutStore } from '../stores/store.js';

export { ExportWindowError } from '../payments/export-window.js';
export { xlsxContentType } from '../payments/xlsx/xlsx-parts.js';

/** The export's two files: RFC 4180 CSV, or an xlsx workbook with its totals. */
export type ExportFormat = 'csv' | 'xlsx';

const mediaTypes: Record<ExportFormat, string> = { csv: 'text/csv', xlsx: xlsxContentType };

/** The quality the `Accept` header gives `type` (0 when it does not name it: a wildcard never asks for a file). */
function quality(accept: string | undefined, type: string): number {
  let best = 0;
  for (const range of (accept ?? '').split(',')) {
    const [name, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (name !== type) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    best = Math.max(best, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return best;
}

/** The export file the `Accept` header asks for (CSV on a tie), or null when it asks for neither. */
export function acceptedExport(accept: string | undefined): ExportFormat | null {
  const [csv, xlsx] = [quality(accept, mediaTypes.csv), quality(accept, mediaTypes.xlsx)];
  if (csv === 0 && xlsx === 0) return null;
  return xlsx > csv ? 'xlsx' : 'csv';
}

/** `payments-2026-11-01-2026-12-01.csv` (or `.xlsx`): the window's days (UTC), with the time when it is not midnight. */
export function exportFileName(window: ExportWindow, format: ExportFormat = 'csv'): string {
  const day = (at: number) => new Date(at).toISOString().replace(/T00:00:00\.000Z$/, '').replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '');
  return `payments-${day(window.from)}-${day(window.to)}.${format}`;
}

export async function exportAnswer(
  store: CheckoutStore,
  query: { from?: string | undefined; to?: string | undefined },
  now: number,
  log: Logger,
  format: ExportFormat = 'csv',
): Promise<Response> {
  const window = exportWindow(query, now);
  const body = await paymentsExportStream(store, window, format === 'xlsx' ? xlsxEncoder(window) : csvEncoder(), {
    onError: (error) => log.error('payments export failed after its start: the download was cut, the client sees it failed', { error }),
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': format === 'xlsx' ? xlsxContentType : 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${exportFileName(window, format)}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
