/**
 * The companion as a service (`momo-checkout serve`, issue 9, "Speed"), on loopback:
 *
 * - server API: create-checkout requests per second (50 keep-alive connections, distinct orders),
 *   with p50/p99 latency;
 * - merchant notification delivery after a service notification: a signed `completed`
 *   notification is posted to the webhook route; the time until the merchant's endpoint receives
 *   the signed `payment.updated`, p50/p95;
 * - outbox throughput: the merchant's endpoint answers 503 while 10,000 transitions are queued,
 *   then 2xx: the time to drain them all, and how many were lost or delivered twice.
 *
 * The service runs in a CHILD process (startStandaloneCompanion, the code behind `momo-checkout serve`, on the
 * memory store); the load and the merchant's endpoint run in this one. No payment service is
 * called: orders are seeded as pending in the store, which is what a notification finds after a
 * pay-in.
 *
 * Run: `npm run bench:service` (or `npm run bench -- service`).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { forkBenchChild, seedPendingOrder } from './companion-server.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const SERVICE_SECRET = 'whsec_bench_service_5b1e0c9d7a3f4e2b8c6d';
const SERVER_SECRET = 'bench-server-secret-0123456789abcdef0123456789';
const MERCHANT_SECRET = `whsec_${Buffer.from('bench-merchant-webhook-key-32-byte').toString('base64')}`;
const CONCURRENCY = 50;
const CREATE_COUNT = 10_000;
const LATENCY_SAMPLES = 200;
const OUTBOX_COUNT = 10_000;
const RETRY_MS = 500;

type Ask = { type: 'seed'; count: number; prefix: string } | { type: 'queued'; count: number; prefix: string };
type ToChild = Ask & { id: number };

// ---------------------------------------------------------------- child: momo-checkout serve
async function runService(): Promise<void> {
  const { startStandaloneCompanion } = await import('../src/server/commands/standalone-companion.js');
  const { createMemoryStore } = await import('../src/server/index.js');
  const { silentLogger } = await import('../src/server/log.js');
  const store = createMemoryStore();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const service = await startStandaloneCompanion({
    env: {
      MOMO_BASE_URL: 'http://127.0.0.1:9', // never called: orders are seeded
      MOMO_API_KEY: 'sk_test_bench',
      MOMO_WEBHOOK_SECRETS: SERVICE_SECRET,
      MOMO_PUBLIC_URL: `http://127.0.0.1:${port}/momo`,
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
      MOMO_SERVER_SECRET: SERVER_SECRET,
      MOMO_MERCHANT_WEBHOOK_URL: process.env.MOMO_BENCH_MERCHANT_URL,
      MOMO_MERCHANT_WEBHOOK_SECRET: MERCHANT_SECRET,
      PORT: String(port),
    },
    store: { store, describe: 'memory' },
    log: silentLogger,
    // A short fixed backoff: the outbox figure measures draining, not waiting for a 2-hour retry.
    overrides: { deliveryRetryDelaysMs: [RETRY_MS] },
  });
  process.on('message', async (message: ToChild) => {
    if (message.type === 'seed') {
      for (let i = 0; i < message.count; i++) {
        const orderId = `${message.prefix}-${i}`;
        await seedPendingOrder(service.companion, store, orderId);
      }
      process.send!({ id: message.id, result: message.count });
    } else if (message.type === 'queued') {
      let queued = 0;
      for (let i = 0; i < message.count; i++) queued += (await store.getByOrderId(`${message.prefix}-${i}`))?.deliveries.length ?? 0;
      process.send!({ id: message.id, result: queued });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: true, port });
}

// ---------------------------------------------------------------- parent: load and merchant endpoint
interface ServiceHandle {
  port: number;
  ask<T>(message: Ask): Promise<T>;
  stop(): void;
}

function startServiceProcess(merchantUrl: string): Promise<ServiceHandle> {
  return forkBenchChild<Ask>(fileURLToPath(import.meta.url), { MOMO_BENCH_ROLE: 'service', MOMO_BENCH_MERCHANT_URL: merchantUrl }, [], 'bench service');
}

/** The merchant's endpoint: answers 204 when up, 503 when down; records what arrived. */
interface Merchant {
  url: string;
  up: boolean;
  /** Distinct `webhook-id`s answered 2xx, and how many 2xx in all. */
  delivered: Set<string>;
  acknowledged: number;
  failed: number;
  /** Resolvers waiting for an order's `completed`. */
  waiters: Map<string, (at: number) => void>;
  server: Server;
}

async function startMerchant(): Promise<Merchant> {
  const merchant = { url: '', up: true, delivered: new Set<string>(), acknowledged: 0, failed: 0, waiters: new Map(), server: undefined as unknown as Server } satisfies Merchant;
  merchant.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!merchant.up) {
        merchant.failed += 1;
        res.writeHead(503).end();
        return;
      }
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { orderId: string; payment: { state: string } } };
      merchant.acknowledged += 1;
      merchant.delivered.add(String(req.headers['webhook-id']));
      if (event.data.payment.state === 'completed') merchant.waiters.get(event.data.orderId)?.(performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => merchant.server.listen(0, '127.0.0.1', resolve));
  merchant.url = `http://127.0.0.1:${(merchant.server.address() as AddressInfo).port}/momo-events`;
  return merchant;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Sends `requests` (complete HTTP/1.1 requests) over CONCURRENCY keep-alive connections, each
 * sending its next request when the previous answer has arrived. Raw sockets: node:http's client
 * costs more CPU per request than the routes measured (same reasoning as bench/companion.ts).
 */
async function hammer(port: number, requests: Buffer[]): Promise<{ latencies: number[]; failures: string[]; elapsed: number }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const start = performance.now();
  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      let buffer = '';
      let sentAt = 0;
      const send = () => {
        if (next >= requests.length) {
          socket.end();
          resolve();
          return;
        }
        sentAt = performance.now();
        socket.write(requests[next++]!);
      };
      socket.on('connect', send);
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          const headerEnd = buffer.indexOf('\r\n\r\n');
          if (headerEnd < 0) return;
          const head = buffer.slice(0, headerEnd);
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < headerEnd + 4 + length) return;
          const body = buffer.slice(headerEnd + 4, headerEnd + 4 + length);
          buffer = buffer.slice(headerEnd + 4 + length);
          latencies.push(performance.now() - sentAt);
          if (!head.startsWith('HTTP/1.1 200')) failures.push(`${head.split('\r\n')[0]} ${body.slice(0, 200)}`);
          send();
        }
      });
    });
  await Promise.all(Array.from({ length: CONCURRENCY }, connection));
  return { latencies, failures, elapsed: performance.now() - start };
}

function postRequest(port: number, path: string, body: string, headers: Record<string, string> = {}): Buffer {
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.from(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

async function signedCompleted(orderId: string): Promise<string> {
  const { signWebhook } = await import('../src/contract/webhook-signature/index.js');
  return signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId, status: 'completed' }, SERVICE_SECRET, { nonce: `bench-${orderId}` });
}

async function until(what: string, predicate: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function measureCreate(service: ServiceHandle): Promise<Figure[]> {
  const auth = { authorization: `Bearer ${SERVER_SECRET}` };
  const request = (prefix: string, i: number) => postRequest(service.port, '/momo/server/checkouts', JSON.stringify({ orderId: `${prefix}-${i}`, amount: '5000', currencyCode: 'XOF' }), auth);
  // Warm-up (JIT, sockets).
  const warm = await hammer(service.port, Array.from({ length: 1_000 }, (_, i) => request('warm', i)));
  if (warm.failures.length > 0) throw new Error(`create-checkout refused: ${warm.failures[0]}`);
  const { latencies, failures, elapsed } = await hammer(service.port, Array.from({ length: CREATE_COUNT }, (_, i) => request('create', i)));
  if (failures.length > 0) throw new Error(`${failures.length} create-checkout requests failed: ${failures[0]}`);
  latencies.sort((a, b) => a - b);
  return [
    { name: `server API: create checkout (${CONCURRENCY} keep-alive connections)`, value: Math.round((latencies.length / elapsed) * 1000), unit: 'requests/s' },
    { name: 'server API: create checkout latency p50', value: percentile(latencies, 50), unit: 'ms' },
    { name: 'server API: create checkout latency p99', value: percentile(latencies, 99), unit: 'ms' },
  ];
}

async function measureDelivery(service: ServiceHandle, merchant: Merchant): Promise<Figure[]> {
  await service.ask({ type: 'seed', count: LATENCY_SAMPLES, prefix: 'lat' });
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const orderId = `lat-${i}`;
    const body = await signedCompleted(orderId);
    const arrived = new Promise<number>((resolve) => merchant.waiters.set(orderId, resolve));
    const sentAt = performance.now();
    const answer = await fetch(`http://127.0.0.1:${service.port}/momo/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`notification refused: HTTP ${answer.status}`);
    latencies.push((await arrived) - sentAt);
    merchant.waiters.delete(orderId);
  }
  latencies.sort((a, b) => a - b);
  return [
    { name: `service notification to merchant endpoint: p50 (${LATENCY_SAMPLES} samples)`, value: percentile(latencies, 50), unit: 'ms' },
    { name: 'service notification to merchant endpoint: p95', value: percentile(latencies, 95), unit: 'ms' },
  ];
}

async function measureOutbox(service: ServiceHandle, merchant: Merchant): Promise<Figure[]> {
  await service.ask({ type: 'seed', count: OUTBOX_COUNT, prefix: 'q' });
  const bodies = await Promise.all(Array.from({ length: OUTBOX_COUNT }, (_, i) => signedCompleted(`q-${i}`)));
  merchant.up = false;
  const posted = await hammer(service.port, bodies.map((body) => postRequest(service.port, '/momo/webhook', body)));
  if (posted.failures.length > 0) throw new Error(`${posted.failures.length} notifications refused: ${posted.failures[0]}`);
  await until('every transition queued', async () => (await service.ask<number>({ type: 'queued', count: OUTBOX_COUNT, prefix: 'q' })) === OUTBOX_COUNT, 60_000);
  const failedWhileDown = merchant.failed;
  const before = merchant.acknowledged;
  merchant.up = true;
  const upAt = performance.now();
  const ours = () => [...merchant.delivered].filter((id) => id.startsWith('q-')).length;
  await until('the queue to drain', () => ours() === OUTBOX_COUNT, 300_000);
  const drainMs = performance.now() - upAt;
  await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 2)); // late duplicates, if any
  const queuedAfter = await service.ask<number>({ type: 'queued', count: OUTBOX_COUNT, prefix: 'q' });
  const acknowledged = merchant.acknowledged - before;
  return [
    { name: `outbox: transitions queued while the endpoint answered 503`, value: OUTBOX_COUNT, unit: 'transitions' },
    { name: 'outbox: failed attempts while down', value: failedWhileDown, unit: 'attempts' },
    { name: 'outbox: drain time once the endpoint is up', value: drainMs / 1000, unit: 's' },
    { name: 'outbox: drain throughput', value: Math.round(OUTBOX_COUNT / (drainMs / 1000)), unit: 'transitions/s' },
    { name: 'outbox: lost (never acknowledged) / still queued', value: OUTBOX_COUNT - ours() + queuedAfter, unit: 'transitions' },
    { name: 'outbox: delivered twice (2xx beyond one per transition)', value: acknowledged - ours(), unit: 'transitions' },
  ];
}

export async function benchService(): Promise<Figure[]> {
  const merchant = await startMerchant();
  const service = await startServiceProcess(merchant.url);
  try {
    return [...(await measureCreate(service)), ...(await measureDelivery(service, merchant)), ...(await measureOutbox(service, merchant))];
  } finally {
    service.stop();
    merchant.server.closeAllConnections();
    merchant.server.close();
  }
}

if (process.env.MOMO_BENCH_ROLE === 'service') {
  await runService();
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await benchService();
  console.log('| figure | measured |\n|---|---|');
  for (const figure of figures) {
    const value = Number.isInteger(figure.value) ? figure.value.toLocaleString('en-US') : figure.value.toFixed(2);
    console.log(`| ${figure.name} | ${value} ${figure.unit} |`);
  }
}
