/**
 * The accountant's export said over HTTP, one answer for both ways in: the server API's
 * `GET /payments` asked with `Accept: text/csv`, and the console's download. A CSV file streamed
 * from the store (payments/export-stream.ts), named by its window, never cached. A bad window throws
 * an {@link ExportWindowError}, which each way in answers in its own error shape.
 */
import type { Logger } from '../log.js';
import { paymentsCsvStream } from '../payments/export-stream.js';
import { exportWindow, type ExportWindow } from '../payments/export-window.js';
import type { CheckoutStore } from '../stores/store.js';

export { ExportWindowError } from '../payments/export-window.js';

/** True when the `Accept` header asks for CSV (`text/csv`, with a quality above zero). */
export function acceptsCsv(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === 'text/csv' && !parameters.some((parameter) => /^q=0(?:\.0*)?$/.test(parameter));
  });
}

/** `payments-2026-11-01-2026-12-01.csv`: the window's days (UTC), with the time when it is not midnight. */
export function exportFileName(window: ExportWindow): string {
  const day = (at: number) => new Date(at).toISOString().replace(/T00:00:00\.000Z$/, '').replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '');
  return `payments-${day(window.from)}-${day(window.to)}.csv`;
}

export async function exportAnswer(store: CheckoutStore, query: { from?: string | undefined; to?: string | undefined }, now: number, log: Logger): Promise<Response> {
  const window = exportWindow(query, now);
  const body = await paymentsCsvStream(store, window, {
    onError: (error) => log.error('payments export failed after its start: the download was cut, the client sees it failed', { error }),
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${exportFileName(window)}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
