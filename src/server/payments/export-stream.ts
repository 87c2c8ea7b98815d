/**
 * The export as a stream of bytes: the store read a page at a time through its creation-time index
 * (stores/created-pages.ts), each page written by the file's encoder (CSV rows, or the xlsx file's
 * compressed rows, xlsx/xlsx-export.ts) only when the reader asks for more (a pull stream with a
 * queue of one chunk), so a slow download holds one page in memory, not the window, whatever its size.
 *
 * The first page is read before the stream is handed back: a store that cannot be read fails the
 * request with its ordinary answer (503), not with a file cut after its header. A failure later
 * ends the stream with an error, which the HTTP server turns into an aborted transfer: a client
 * (a browser's download, curl) reports the file as failed instead of keeping a short one.
 */
import type { CheckoutRecord } from '../model/records.js';
import { paymentsCreatedPage } from '../stores/created-pages.js';
import type { CheckoutStore } from '../stores/store.js';
import type { ExportWindow } from './export-window.js';
import { exportHeader, exportRow } from './payments-export.js';

/** Writes a file of the export a page at a time: the bytes of each page (the first call starts the file), then its end. */
export interface ExportEncoder {
  page(records: readonly CheckoutRecord[]): Uint8Array;
  end(): Uint8Array;
}

/** Records read per page: a few hundred kilobytes of CSV. */
export const exportPageSize = 500;

export interface ExportStreamOptions {
  pageSize?: number;
  /** Told of a failure after the first page (the response has started: only the log can say why). */
  onError?: (error: unknown) => void;
}

/** The CSV encoder: the byte order mark and header, then rows; nothing at the end. */
export function csvEncoder(): ExportEncoder {
  const encoder = new TextEncoder();
  let header = exportHeader;
  return {
    page(records) {
      const text = header + records.map(exportRow).join('');
      header = '';
      return encoder.encode(text);
    },
    end: () => new Uint8Array(0),
  };
}

/** The file `encoder` writes of the payments created in `window`, by creation time. */
export async function paymentsExportStream(store: CheckoutStore, window: ExportWindow, encoder: ExportEncoder, options: ExportStreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const limit = options.pageSize ?? exportPageSize;
  const read = (last: CheckoutRecord | undefined) =>
    paymentsCreatedPage(store, { ...window, limit, ...(last ? { after: { createdAt: last.createdAt, orderId: last.orderId } } : {}) });
  let page: CheckoutRecord[] | null = await read(undefined);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (page === null) {
            controller.close();
            return;
          }
          const bytes = encoder.page(page);
          const last = page[page.length - 1];
          // A short page is the last one: no read more.
          page = page.length < limit ? null : await read(last);
          if (page !== null && page.length === 0) page = null;
          controller.enqueue(page === null ? concat(bytes, encoder.end()) : bytes);
        } catch (error) {
          options.onError?.(error);
          controller.error(error);
        }
      },
    },
    { highWaterMark: 1 },
  );
}

/** The CSV file of the payments created in `window`, by creation time. */
export function paymentsCsvStream(store: CheckoutStore, window: ExportWindow, options: ExportStreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
  return paymentsExportStream(store, window, csvEncoder(), options);
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (tail.byteLength === 0) return head;
  const both = new Uint8Array(head.byteLength + tail.byteLength);
  both.set(head);
  both.set(tail, head.byteLength);
  return both;
}
