/**
 * Issue 40's volume proof: each store seeded with 100,000 finished payments over the week (and 8
 * failed in the last hour, and the newest payment's refund left `sending` ten minutes ago). Checks
 * that the stuck refund is listed and counted and that the operator-rate gauge reads the last hour,
 * then times the stale list, the store gauges (one scrape's store reads) and the console's overview.
 * Seeding goes through each store's own rows in one transaction where its create is one round trip
 * per record (test/support/seed-records.ts). Figures go into the README by hand, with `uptime`.
 *
 * Run alone: `npx tsx bench/support-views.ts` (needs redis-server on PATH and Debian's postgresql). Part of `npm run bench`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, type Figure } from './console-list.js';
import { readOperatorRates, readPaymentsPerHour } from '../src/server/console/overview-reads.js';
import { createLogger } from '../src/server/log.js';
import { readStoreGauges } from '../src/server/metrics/store-gauges.js';
import type { CheckoutRecord } from '../src/server/model/records.js';
import { newRefundRecord } from '../src/server/model/refund.js';
import { listPaymentSummaries } from '../src/server/payments/payments-list.js';
import { createMemoryStore } from '../src/server/stores/memory/memory-store.js';
import { createPostgresStore } from '../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../src/server/stores/sqlite/sqlite-store.js';
import { sampleRecord, samplePayment } from '../src/server/stores/store-contract.js';
import type { CheckoutStore } from '../src/server/stores/store.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { seedFileStore, seedPostgresStore, seedThroughStore } from '../test/support/seed-records.js';
import { printWhenRunAlone } from './print-figures.js';

const payments = 100_000;
const runs = 5;
const hourMs = 3_600_000;
const weekMs = 7 * 24 * hourMs;
const operators = ['MTN', 'Moov'].map((name) => ({ code: name.toLowerCase(), name, logoUrl: 'https://example.test/logo.png', instructions: null }));

/** 100,000 finished payments over the week before the last hour (one in six failed), 8 failed in the last hour, the newest with a refund left sending. */
function busyWeek(now: number): CheckoutRecord[] {
  const tag = `bench-${now}`;
  const one = (index: number, state: 'completed' | 'failed', updatedAt: number): CheckoutRecord => ({
    ...sampleRecord({ orderId: `${tag}-${index}`, createdAt: updatedAt, retainUntil: updatedAt + weekMs + hourMs }),
    payment: samplePayment(`${tag}-${index}`, { state, updatedAt, operator: operators[index % 2]!, ...(state === 'completed' ? { reportedPhoneNumber: '+2290196000001' } : {}) }),
  });
  const records = Array.from({ length: payments }, (_, index) => one(index, index % 6 === 5 ? 'failed' : 'completed', now - weekMs + 2 * hourMs + Math.floor(((weekMs - 4 * hourMs) * index) / payments)));
  for (let index = 0; index < 8; index++) records.push(one(payments + index, 'failed', now - 50 * 60_000 + index * 60_000));
  const newest = one(payments + 8, 'completed', now - 20 * 60_000);
  records.push({ ...newest, refunds: [newRefundRecord({ refundId: 'rf-bench', payoutOrderId: `${newest.orderId}-r1`, amount: '1000', reason: null, phoneNumber: '+2290196000001' }, now - 10 * 60_000)] });
  return records;
}

async function measure(name: string, store: CheckoutStore, seed: (records: CheckoutRecord[]) => Promise<void>): Promise<Figure[]> {
  const now = Date.now();
  const seedStarted = performance.now();
  await seed(busyWeek(now));
  const seeded = performance.now() - seedStarted;
  const stale = () => listPaymentSummaries(store, { state: 'stale', olderThanMinutes: 5 }, now);
  const gauges = () => readStoreGauges(store, now, 5);
  const overview = () => Promise.all([readPaymentsPerHour(store, now), readOperatorRates(store, now), listPaymentSummaries(store, { state: 'stale' }, now)]);
  // The proof before the timings: the stuck refund is found, the last hour is read.
  assert.ok((await stale()).some((item) => item.refund?.refundId === 'rf-bench'), `${name}: the stuck refund is listed`);
  const read = await gauges();
  assert.equal(read.stuck.refund, 1, `${name}: the stuck refund is counted`);
  assert.equal(read.operators.reduce((sum, item) => sum + item.lastHour.finished, 0), 9, `${name}: the last hour is read (8 failed, the refunded one completed)`);
  const unit = `ms (median of ${runs}, ${payments} finished payments)`;
  return [
    { name: `${name}: seeding`, value: Math.round(seeded), unit: 'ms (once)' },
    { name: `${name}: stale list`, value: Number((await median(stale, runs)).toFixed(1)), unit },
    { name: `${name}: store gauges (one scrape)`, value: Number((await median(gauges, runs)).toFixed(1)), unit },
    { name: `${name}: console overview`, value: Number((await median(overview, runs)).toFixed(1)), unit },
  ];
}


const print = (figures: Figure[]) => printWhenRunAlone(import.meta.url, figures);

export async function benchSupportViews(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'momo-bench-support-'));
  const redis = await startRedisServer();
  const postgres = await startPostgresServer();
  const log = createLogger({ level: 'error' });
  try {
    const memory = createMemoryStore({ maxRecords: 200_000 });
    const figures = print(await measure('memory', memory, (records) => seedThroughStore(memory, records)));
    const path = join(dir, 'bench.sqlite');
    const file = createFileStore({ path });
    figures.push(...print(await measure('file (SQLite)', file, async (records) => seedFileStore(path, records))));
    await file.close?.();
    const shared = await createRedisStore({ url: redis.url, log });
    figures.push(...print(await measure('redis (loopback)', shared, (records) => seedThroughStore(shared, records))));
    await shared.close?.();
    const sql = await createPostgresStore({ url: postgres.url, log });
    figures.push(...print(await measure('postgres (loopback)', sql, (records) => seedPostgresStore(postgres.url, 'momo_checkout', records))));
    await sql.close?.();
    return figures;
  } finally {
    await redis.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchSupportViews();
