/**
 * Store operations per second, one call at a time (each awaited before the next: the latency a
 * request handler sees), for the memory, file (SQLite, WAL + synchronous=FULL, on this machine's
 * temp folder), Redis (a throwaway redis-server on loopback, from the test helper) and PostgreSQL
 * stores (a throwaway PostgreSQL 15 on loopback, default synchronous_commit, fsync on):
 * createIfAbsent of a new checkout, getByTokenHash, a compare-and-set through updateCheckoutRecord
 * (read + write), and addToInbox of a new notification. Records are realistic (~1.5 KB of JSON
 * once a payment and a delivery are on them).
 *
 * Run alone: `npx tsx bench/stores.ts` (needs redis-server on PATH and Debian's postgresql). Part of `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFileStore } from '../src/server/stores/sqlite/sqlite-store.js';
import { createMemoryStore } from '../src/server/stores/memory/memory-store.js';
import type { CheckoutRecord } from '../src/server/model/records.js';
import { createRedisStore } from '../src/server/stores/redis/redis-store.js';
import { updateCheckoutRecord, type CheckoutStore } from '../src/server/stores/store.js';
import { createLogger } from '../src/server/log.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { createPostgresStore } from '../src/server/stores/postgres/postgres-store.js';
import { createDatabase, startPostgresServer } from '../test/support/postgres-server.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const MEASURE_MS = 1_000;
const WARM_MS = 200;
const operations = ['createIfAbsent', 'getByTokenHash', 'updateCheckoutRecord', 'addToInbox'] as const;
type Operation = (typeof operations)[number];

let sequence = 0;
const run = `${process.pid}-${Date.now()}`;

export function checkout(): CheckoutRecord {
  const n = ++sequence;
  const orderId = `bench-${run}-${n}`;
  return {
    orderId,
    amount: '25000',
    currencyCode: 'XOF',
    decimalPlaces: 0,
    token: `tok_${'x'.repeat(43)}${n}`,
    tokenHash: `hash-${run}-${n}-${'0'.repeat(40)}`,
    returnId: `ret-${run}-${n}`,
    returnUrl: 'https://shop.example/checkout/return',
    maxAttempts: 3,
    createdAt: Date.now(),
    expiresAt: Date.now() + 30 * 60_000,
    revision: 0,
    version: 0,
    retainUntil: Date.now() + 7 * 24 * 60 * 60_000,
    payment: null,
    deliveries: [],
    deliveryLog: [],
  };
}

/** What a transition writes: a payment, its delivery and a log line (also the console bench's payments). */
export function paid(record: CheckoutRecord): CheckoutRecord {
  const version = record.version + 1;
  return {
    ...record,
    version,
    payment: {
      state: version % 2 ? 'pending' : 'unknown',
      attempt: 1,
      serviceOrderId: record.orderId,
      phoneNumber: '+2290196123456',
      useWallet: false,
      operator: { code: 'mtn-bj', name: 'MTN Benin', logoUrl: 'https://cdn.example/operators/mtn-bj.svg', instructions: 'Approve the prompt on your phone.' },
      workflow: 'provider_auth',
      authorizationUrl: null,
      returned: false,
      amountMismatch: false,
      lastServiceStatus: 'pending',
      transactionId: `txn_${record.orderId}`,
      updatedAt: Date.now(),
    },
    deliveries: [
      {
        id: `${record.orderId}.${version}`,
        sink: 'webhook',
        createdAt: Date.now(),
        attempts: 0,
        nextAttemptAt: Date.now(),
        update: {
          orderId: record.orderId,
          idempotencyKey: `${record.orderId}.${version}`,
          amount: record.amount,
          currencyCode: record.currencyCode,
          previousState: null,
          amountMismatch: false,
          phoneMismatch: false,
          payment: {
            state: 'pending',
            version,
            orderId: record.orderId,
            phoneNumberMasked: '+229 •• •• •• 56',
            operator: null,
            workflow: 'provider_auth',
            instructions: 'Approve the prompt on your phone.',
            authorizationUrl: null,
            returned: false,
            canRetry: false,
            updatedAt: new Date().toISOString(),
          },
        },
      },
    ],
    deliveryLog: [{ deliveryId: `${record.orderId}.${version - 1}`, sink: 'webhook', at: Date.now(), ok: true, status: 200 }],
  };
}

/** Calls `work` one at a time until MEASURE_MS has passed; returns calls per second. */
async function opsPerSecond(work: () => Promise<unknown>): Promise<number> {
  const warmUntil = performance.now() + WARM_MS;
  while (performance.now() < warmUntil) await work();
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    for (let i = 0; i < 20; i++) await work();
    count += 20;
    elapsed = performance.now() - start;
  }
  return (count / elapsed) * 1000;
}

async function measure(store: CheckoutStore): Promise<Record<Operation, number>> {
  const created: CheckoutRecord[] = [];
  const create = await opsPerSecond(async () => {
    const record = checkout();
    await store.createIfAbsent(record);
    created.push(record);
  });
  let i = 0;
  const read = await opsPerSecond(() => store.getByTokenHash(created[i++ % created.length]!.tokenHash));
  const hot = created.slice(0, 1_000);
  i = 0;
  const transition = await opsPerSecond(() => updateCheckoutRecord(store, hot[i++ % hot.length]!.orderId, paid));
  const inbox = await opsPerSecond(() => store.addToInbox({ id: `nonce-${run}-${++sequence}`, rawBody: '{"orderId":"o","status":"completed","amount":25000}', receivedAt: Date.now() }, 600_000));
  return { createIfAbsent: create, getByTokenHash: read, updateCheckoutRecord: transition, addToInbox: inbox };
}

export async function benchStores(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'momo-bench-stores-'));
  const redis = await startRedisServer();
  const postgres = await startPostgresServer();
  const results: Array<[string, Record<Operation, number>]> = [];
  try {
    const memory = createMemoryStore();
    results.push(['memory', await measure(memory)]);
    const file = createFileStore({ path: join(dir, 'bench.sqlite') });
    results.push(['file (SQLite)', await measure(file)]);
    await file.close?.();
    const shared = await createRedisStore({ url: redis.url, log: createLogger({ level: 'error' }) });
    results.push(['redis (loopback)', await measure(shared)]);
    await shared.close?.();
    const sql = await createPostgresStore({ url: postgres.urlOf(createDatabase(postgres)), log: createLogger({ level: 'error' }) });
    results.push(['postgres (loopback)', await measure(sql)]);
    await sql.close?.();
  } finally {
    await redis.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results.flatMap(([store, figures]) => operations.map((operation) => ({ name: `${store}: ${operation}`, value: Math.round(figures[operation]), unit: 'ops/s' })));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await benchStores();
  const stores = [...new Set(figures.map((figure) => figure.name.split(': ')[0]!))];
  console.log(`${'ops/s, one at a time'.padEnd(20)}${operations.map((operation) => operation.padStart(20)).join('')}`);
  for (const store of stores) {
    const row = operations.map((operation) => String(figures.find((figure) => figure.name === `${store}: ${operation}`)!.value).padStart(20));
    console.log(`${store.padEnd(20)}${row.join('')}`);
  }
}
