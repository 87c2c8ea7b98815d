/**
 * Issue 44's export at volume: 100,000 payments (with refunds, two currencies) in each store,
 * exported through the server API (`GET /payments`, `Accept: text/csv`, then the xlsx workbook of
 * issue 55) over loopback HTTP, read as it comes. Measured: rows per second, and the process's heap and RSS above their level before the
 * export (after a GC), at their highest while the file streams: for a tenth of the window (10,000
 * payments) and for all of it. Flat memory means the two peaks are alike: the export holds a page,
 * not the window. Server and reader share the process (the reader keeps only a byte count).
 *
 * Run alone: `node --expose-gc --import tsx bench/export.ts` (the GC makes the baselines comparable;
 * without it they are rougher). Needs redis-server on PATH and Debian's postgresql. Part of `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Figure } from './console-list.js';
import { createLogger } from '../src/server/log.js';
import { xlsxContentType } from '../src/server/payments/xlsx/xlsx-parts.js';
import type { CheckoutRecord } from '../src/server/model/records.js';
import { createMemoryStore } from '../src/server/stores/memory/memory-store.js';
import { createPostgresStore } from '../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../src/server/stores/sqlite/sqlite-store.js';
import type { CheckoutStore } from '../src/server/stores/store.js';
import { startHarness } from '../test/server/harness.js';
import { exportRecords } from '../test/support/export-records.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { seedFileStore, seedPostgresStore, seedThroughStore } from '../test/support/seed-records.js';
import { printWhenRunAlone } from './print-figures.js';

const payments = 100_000;
const serverSecret = 'bench-export-secret-0123456789abcdef01234';
// One payment a second from here: 100,000 seconds, 27.8 hours.
const start = Date.UTC(2025, 10, 1);
const mb = (bytes: number) => Number((bytes / 1e6).toFixed(1));

interface ExportRun {
  rows: number;
  bytes: number;
  ms: number;
  heapPeak: number;
  rssPeak: number;
}

/** Exports [from, to) through the server API, reading the stream chunk by chunk and keeping only counts (lines: the CSV's rows). */
async function exportOnce(base: string, from: number, to: number, accept = 'text/csv'): Promise<ExportRun> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let heapPeak = 0;
  let rssPeak = 0;
  const started = performance.now();
  const query = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  const response = await fetch(`${base}/server/payments?${query}`, { headers: { authorization: `Bearer ${serverSecret}`, accept } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  let rows = 0;
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) rows++;
    const now = process.memoryUsage();
    heapPeak = Math.max(heapPeak, now.heapUsed - before.heapUsed);
    rssPeak = Math.max(rssPeak, now.rss - before.rss);
  }
  return { rows: rows - 1, bytes, ms: performance.now() - started, heapPeak, rssPeak };
}

async function measure(name: string, store: CheckoutStore, seed: (records: CheckoutRecord[]) => Promise<void>): Promise<Figure[]> {
  const seedStarted = performance.now();
  await seed(exportRecords(`bench-export-${Date.now()}`, payments, start));
  const seeded = performance.now() - seedStarted;
  const h = await startHarness({ serverSecret, store, setupChecksAtStart: false });
  try {
    const tenth = await exportOnce(h.base, start, start + (payments / 10) * 1_000);
    const whole = await exportOnce(h.base, start, start + payments * 1_000);
    if (tenth.rows !== payments / 10 || whole.rows !== payments) throw new Error(`${name}: exported ${tenth.rows} and ${whole.rows} rows`);
    const xlsxTenth = await exportOnce(h.base, start, start + (payments / 10) * 1_000, xlsxContentType);
    const xlsxWhole = await exportOnce(h.base, start, start + payments * 1_000, xlsxContentType);
    return [
      { name: `${name}: seeding`, value: Math.round(seeded), unit: 'ms (once)' },
      { name: `${name}: 100,000 payments exported`, value: Math.round(whole.ms), unit: `ms (${Math.round(whole.rows / (whole.ms / 1000))} rows/s, ${mb(whole.bytes)} MB of CSV)` },
      { name: `${name}: heap above baseline, 10,000 / 100,000`, value: mb(tenth.heapPeak), unit: `/ ${mb(whole.heapPeak)} MB at most` },
      { name: `${name}: RSS above baseline, 10,000 / 100,000`, value: mb(tenth.rssPeak), unit: `/ ${mb(whole.rssPeak)} MB at most` },
      { name: `${name}: 100,000 payments as xlsx`, value: Math.round(xlsxWhole.ms), unit: `ms (${Math.round(payments / (xlsxWhole.ms / 1000))} rows/s, ${mb(xlsxWhole.bytes)} MB)` },
      { name: `${name}: xlsx heap above baseline, 10,000 / 100,000`, value: mb(xlsxTenth.heapPeak), unit: `/ ${mb(xlsxWhole.heapPeak)} MB at most` },
      { name: `${name}: xlsx RSS above baseline, 10,000 / 100,000`, value: mb(xlsxTenth.rssPeak), unit: `/ ${mb(xlsxWhole.rssPeak)} MB at most` },
    ];
  } finally {
    await h.close();
  }
}


const print = (figures: Figure[]) => printWhenRunAlone(import.meta.url, figures);

export async function benchExport(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'momo-bench-export-'));
  const log = createLogger({ level: 'error' });
  const figures: Figure[] = [];
  try {
    const path = join(dir, 'bench.sqlite');
    await createFileStore({ path }).close?.();
    figures.push(...print(await measure('file (SQLite)', createFileStore({ path }), async (records) => seedFileStore(path, records))));
    const memory = createMemoryStore({ maxRecords: 200_000 });
    figures.push(...print(await measure('memory', memory, (records) => seedThroughStore(memory, records))));
    const postgres = await startPostgresServer();
    try {
      await (await createPostgresStore({ url: postgres.url, log })).close?.();
      const sql = await createPostgresStore({ url: postgres.url, log });
      figures.push(...print(await measure('postgres (loopback)', sql, (records) => seedPostgresStore(postgres.url, 'momo_checkout', records))));
    } finally {
      await postgres.stop();
    }
    const redis = await startRedisServer();
    try {
      const shared = await createRedisStore({ url: redis.url, log });
      figures.push(...print(await measure('redis (loopback)', shared, (records) => seedThroughStore(shared, records))));
    } finally {
      await redis.stop();
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchExport();
