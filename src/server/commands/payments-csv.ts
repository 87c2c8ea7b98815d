/**
 * `npx momo-checkout payments --csv|--xlsx [--from DAY] [--to DAY] [--output FILE]`: the accountant's
 * export (payments/export-stream.ts; the xlsx workbook payments/xlsx/xlsx-export.ts), from the
 * running companion's server API when MOMO_SERVER_URL or `--url` is set (as the other commands reach
 * it, server-api-call.ts), else from the store the environment names. Streamed to the file (or
 * standard output) as it comes; a file cut by a failure is removed, never left looking complete.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { csvEncoder, paymentsExportStream } from '../payments/export-stream.js';
import { exportWindow, ExportWindowError } from '../payments/export-window.js';
import { xlsxEncoder } from '../payments/xlsx/xlsx-export.js';
import { xlsxContentType } from '../payments/xlsx/xlsx-parts.js';
import { openStoreFromEnv } from '../stores/store-from-env.js';
import { serverApiTarget } from './server-api-call.js';
import { UsageError } from './usage-error.js';

type Env = Record<string, string | undefined>;

export interface CsvExportFlags {
  from?: string | undefined;
  to?: string | undefined;
  output?: string | undefined;
  url?: string | undefined;
  /** The xlsx workbook instead of the CSV file. */
  xlsx?: boolean | undefined;
}

/** Writes `body` to the output file (removed if the stream fails) or to standard output. */
async function writeOut(body: ReadableStream<Uint8Array>, output: string | undefined, stdout: Writable): Promise<void> {
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  if (!output) return pipeline(source, stdout, { end: false });
  try {
    await pipeline(source, createWriteStream(output));
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
}

export async function paymentsCsvCommand(flags: CsvExportFlags, env: Env, out: (line: string) => void, stdout: Writable = process.stdout): Promise<number> {
  const query = { from: flags.from, to: flags.to };
  const where = flags.output ? flags.output : 'standard output';
  const mediaType = flags.xlsx ? xlsxContentType : 'text/csv';
  if (flags.xlsx && !flags.output && (stdout as { isTTY?: boolean }).isTTY) {
    throw new UsageError('--xlsx writes a binary file: add --output payments.xlsx (or redirect standard output to a file).');
  }
  if (flags.url?.trim() || env.MOMO_SERVER_URL?.trim()) {
    const target = serverApiTarget(env, flags.url);
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const address = `${target.base}/payments${params.size > 0 ? `?${params}` : ''}`;
    let response: Response;
    try {
      response = await fetch(address, { headers: { authorization: `Bearer ${target.secret}`, accept: mediaType } });
    } catch (error) {
      out(`FAIL  could not reach the companion at ${address} (${error instanceof Error ? error.message : String(error)}): is \`momo-checkout serve\` running there?`);
      return 1;
    }
    if (!response.ok || !response.headers.get('content-type')?.startsWith(mediaType) || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      out(`FAIL  the companion answered HTTP ${response.status} at ${address}: ${body?.error?.message ?? (flags.xlsx ? 'not an xlsx file (a companion older than its xlsx export answers CSV only: update it, or ask for --csv)' : 'not a CSV file (is this the server API of momo-checkout 0.5 or later?)')}`);
      return 1;
    }
    try {
      await writeOut(response.body, flags.output, stdout);
    } catch (error) {
      out(`FAIL  the export was cut (${error instanceof Error ? error.message : String(error)}): nothing kept; run it again.`);
      return 1;
    }
    if (flags.output) out(`Wrote the payments export to ${where}.`);
    return 0;
  }
  let window;
  try {
    window = exportWindow(query, Date.now());
  } catch (error) {
    if (error instanceof ExportWindowError) throw new UsageError(error.message.replace(/\b(from|to)=/g, '--$1 '));
    throw error;
  }
  const { store, hub } = await openStoreFromEnv(env);
  try {
    await writeOut(await paymentsExportStream(store, window, flags.xlsx ? xlsxEncoder(window) : csvEncoder()), flags.output, stdout);
    if (flags.output) out(`Wrote the payments export to ${where}.`);
    return 0;
  } finally {
    await store.close?.();
    await hub?.close();
  }
}
