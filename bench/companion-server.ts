/**
 * The companion under benchmark, in a CHILD process (bench/companion.ts says why): the server it
 * runs (the companion on the store the parent chose, or a bare @hono/node-server route for
 * reference), and the parent's handle on it (its port, and questions over IPC: seed orders, read
 * memory, wait until every notification is applied).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Companion, CheckoutStore } from '../src/server/index.js';

/**
 * A checkout whose pay-in the service accepted, as a notification finds it in production: created,
 * then its payment written `pending` straight into the store (no service is called, and no delivery
 * is queued: this is not a transition). Returns the checkout's token.
 */
export async function seedPendingOrder(
  companion: Pick<Companion, 'createCheckout'>,
  store: CheckoutStore,
  orderId: string,
): Promise<string> {
  const { transitionCheckout } = await import('../src/server/index.js');
  const { token } = await companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
  await transitionCheckout(store, orderId, (checkout) => ({
    ...checkout,
    version: checkout.version + 1,
    payment: {
      state: 'pending', attempt: 1, serviceOrderId: orderId, phoneNumber: '+2290196000001', useWallet: false,
      operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://example.invalid/mtn.svg', instructions: null },
      workflow: 'provider_auth', authorizationUrl: null, returned: false, amountMismatch: false, lastServiceStatus: null, transactionId: null, updatedAt: Date.now(),
    },
  }));
  return token;
}

export const SECRET = 'whsec_bench_companion_5b1e0c9d7a3f4e2b8c6d';

/** A bench companion's options on `port`: no payment service is ever called (setup checks off, orders seeded). */
export function benchCompanionOptions(port: number) {
  return {
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'sk_test_bench',
    webhookSecrets: [SECRET],
    publicUrl: `http://127.0.0.1:${port}/momo`,
    allowedOrigins: ['http://shop.test'],
    allowInsecureLocalUrls: true,
    setupChecksAtStart: false,
  };
}
/** Status streams open for the memory figure, above the default cap of 4,000 per process. */
export const OPEN_STREAMS = 10_000;

export type Ask =
  | { type: 'seed'; count: number; prefix: string }
  | { type: 'create'; count: number; concurrency: number; prefix: string }
  | { type: 'memory' }
  | { type: 'settled' }
  /** The server's CPU time so far (user + system, µs), for the CPU time per notification. */
  | { type: 'cpu' }
  /**
   * The event loop's pauses over the measured window: `start` begins a fresh histogram, `stop`
   * answers its p99 and longest pause in ms (a stall holds every request in flight: the p99's cause).
   */
  | { type: 'loop'; action: 'start' | 'stop' }
  /** With MOMO_BENCH_PROFILE_DIR set: a CPU profile of the measured window alone (the seeding left out). */
  | { type: 'profile'; action: 'start' | 'stop'; label: string };
type ToChild = Ask & { id: number };
type FromChild = { id: number; result: unknown } | { ready: true; port: number };

// ---------------------------------------------------------------- child: the companion server
async function runServer(): Promise<void> {
  const { createServer } = await import('node:http');
  const { createCompanion, toNodeHandler } = await import('../src/server/index.js');
  const { silentLogger } = await import('../src/server/log.js');
  const { openStoreFromEnv } = await import('../src/server/stores/store-from-env.js');
  // MOMO_STORE / MOMO_DATA_DIR / MOMO_REDIS_URL / MOMO_POSTGRES_URL, as the parent set them for this run.
  const opened = await openStoreFromEnv(process.env);
  const store = opened.store;
  let server: ReturnType<typeof createServer> | undefined;
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  let applied = 0;
  const companion = createCompanion({
    ...benchCompanionOptions(port),
    // The memory figure is measured at OPEN_STREAMS, above the default cap of 4,000 per process.
    limits: { streams: OPEN_STREAMS },
    store,
    ...(opened.hub ? { hub: opened.hub } : {}),
    // Metrics on for this run (bench/metrics-cost.ts); off otherwise, as with no token nor server secret.
    ...(process.env.MOMO_BENCH_METRICS_TOKEN ? { metricsToken: process.env.MOMO_BENCH_METRICS_TOKEN } : {}),
    log: silentLogger,
    onPaymentUpdate: () => {
      applied += 1;
    },
  });
  server.on('request', toNodeHandler(companion));

  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;
  process.on('message', async (message: ToChild) => {
    if (message.type === 'seed') {
      // Twenty at a time: setup, not measured (a durable store's seeding would otherwise take minutes).
      const orders = await inParallel(message.count, 20, async (i) => {
        const orderId = `${message.prefix}-${i}`;
        return { orderId, token: await seedPendingOrder(companion, store, orderId) };
      });
      process.send!({ id: message.id, result: orders });
    } else if (message.type === 'create') {
      const started = performance.now();
      await inParallel(message.count, message.concurrency, (i) => companion.createCheckout({ orderId: `${message.prefix}-${i}`, amount: '5000', currencyCode: 'XOF' }));
      process.send!({ id: message.id, result: { count: message.count, elapsedMs: performance.now() - started } });
    } else if (message.type === 'memory') {
      for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const usage = process.memoryUsage();
      process.send!({ id: message.id, result: { heapUsed: usage.heapUsed, rss: usage.rss, streams: companion.openStreams() } });
    } else if (message.type === 'settled') {
      process.send!({ id: message.id, result: applied });
    } else if (message.type === 'loop') {
      if (message.action === 'start') {
        loopDelay?.disable();
        loopDelay = monitorEventLoopDelay({ resolution: 1 });
        loopDelay.enable();
        process.send!({ id: message.id, result: null });
      } else {
        loopDelay?.disable();
        process.send!({ id: message.id, result: { p99: (loopDelay?.percentile(99) ?? 0) / 1e6, max: (loopDelay?.max ?? 0) / 1e6 } });
      }
    } else if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ id: message.id, result: user + system });
    } else if (message.type === 'profile') {
      await profileWindow(message.action, message.label);
      process.send!({ id: message.id, result: null });
    }
  });
  process.on('disconnect', () => process.exit(0));
  // An exit, not a kill, so that a child run with --cpu-prof (NODE_OPTIONS) writes its profile.
  process.on('SIGTERM', () => process.exit(0));
  process.send!({ ready: true, port });
}

let profiler: import('node:inspector/promises').Session | undefined;

/** Starts or stops the inspector's CPU profiler; stopping writes `<label>.cpuprofile` in MOMO_BENCH_PROFILE_DIR. */
async function profileWindow(action: 'start' | 'stop', label: string): Promise<void> {
  const dir = process.env.MOMO_BENCH_PROFILE_DIR;
  if (!dir) return;
  if (action === 'start') {
    const { Session } = await import('node:inspector/promises');
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    return;
  }
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  writeFileSync(join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}-${process.pid}.cpuprofile`), JSON.stringify(profile));
  profiler.disconnect();
  profiler = undefined;
}

/** `work(0 … count-1)`, at most `concurrency` at a time; the results in index order. */
async function inParallel<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/**
 * The reference: a bare @hono/node-server route that reads the body and answers 200, under the
 * same load. On a shared or small machine it shows what the machine itself allows.
 *
 * With MOMO_BENCH_BARE_WORK_US set, the route also keeps the event loop busy that many µs before
 * each answer (bench/route-budget.ts): what a route doing that much more work per request answers
 * under the same load, so a ratio to the bare route reads as a budget of work per notification.
 */
async function runBareServer(): Promise<void> {
  const { createServer } = await import('node:http');
  const { getRequestListener } = await import('@hono/node-server');
  const workMs = Number(process.env.MOMO_BENCH_BARE_WORK_US ?? 0) / 1_000;
  const server = createServer(
    getRequestListener(async (request) => {
      await request.arrayBuffer();
      if (workMs > 0) {
        const start = performance.now();
        while (performance.now() - start < workMs);
      }
      return new Response('{"received":true}', { headers: { 'content-type': 'application/json' } });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: true, port: (server.address() as { port: number }).port });
}

// ---------------------------------------------------------------- parent: the load
export interface ServerHandle {
  port: number;
  ask<T>(message: Ask): Promise<T>;
  stop(): void;
}

/**
 * A benchmark's child process (`file`, run with tsx) and the parent's handle on it: its port once
 * it says it is ready, and questions over IPC, each answered under its id. bench/service.ts forks
 * its own child the same way.
 */
export async function forkBenchChild<Question extends object>(file: string, env: Record<string, string>, execArgv: string[], label: string): Promise<{ port: number; ask<T>(message: Question): Promise<T>; stop(): void }> {
  const child: ChildProcess = fork(file, [], { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx', ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
    child.on('message', (message: FromChild) => {
      if ('ready' in message) resolve(message.port);
      else waiting.get(message.id)?.(message.result), waiting.delete(message.id);
    });
  });
  return {
    port,
    ask: <T>(message: Question) =>
      new Promise<T>((resolve) => {
        const id = ++nextId;
        waiting.set(id, resolve as (value: unknown) => void);
        child.send({ ...message, id });
      }),
    stop() {
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}

export function startServerProcess(role: 'server' | 'bare-server' = 'server', storeEnv: Record<string, string> = { MOMO_STORE: 'memory' }): Promise<ServerHandle> {
  return forkBenchChild<Ask>(fileURLToPath(import.meta.url), { ...storeEnv, MOMO_BENCH_ROLE: role }, ['--expose-gc'], 'bench server');
}


if (process.env.MOMO_BENCH_ROLE === 'server') {
  await runServer();
} else if (process.env.MOMO_BENCH_ROLE === 'bare-server') {
  await runBareServer();
}
