/**
 * Soak: `momo-checkout serve` as its own process, on its default store (the SQLite file), under
 * whichever Node runs this script (run it under Node 24 and 22), fed a long stream of real work:
 *
 * - per order: the shop creates the checkout (server API), the payer pays (page route, a push
 *   number the sandbox approves), the sandbox posts its signed notification (completed),
 *   then replays the last one byte for byte and re-sends an earlier one after it (duplicates and
 *   reordering the companion must absorb), and the shop reads the payment back (server API);
 * - the merchant's endpoint (here) verifies every `payment.updated` it receives.
 *
 * It stops at the first sign of trouble and prints what it saw: the process must stay up (its
 * `/healthz` is polled throughout), every order must end `completed` at the companion and reach
 * the merchant exactly once as `completed` (nothing lost, nothing applied twice).
 *
 * Run: `npm run bench -- soak` (SOAK_ORDERS, default 3,400: three verified notifications an order, over 10,000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { startSandbox } from '../src/sandbox/index.js';
import { freePort } from '../test/support/free-port.js';
import { sandboxEnv } from '../test/support/sandbox-env.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const ORDERS = Number(process.env.SOAK_ORDERS ?? 3_400);
const CONCURRENCY = 16;
const SERVER_SECRET = 'soak-server-secret-0123456789abcdef0123456789';
const MERCHANT_SECRET = `whsec_${Buffer.from('soak-merchant-webhook-key-32-bytes').toString('base64')}`;
const APPROVES = '+2290196000001';

async function until(what: string, predicate: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The merchant's endpoint: verifies each delivery, and keeps (webhook-id, order, state). */
function startMerchant(): Promise<{ server: Server; url: string; received: Map<string, { orderId: string; state: string }>; unverified: number }> {
  const verifier = new Webhook(MERCHANT_SECRET);
  const merchant = { received: new Map<string, { orderId: string; state: string }>(), unverified: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      try {
        const event = verifier.verify(body, req.headers as Record<string, string>) as { data: { orderId: string; payment: { state: string } } };
        merchant.received.set(String(req.headers['webhook-id']), { orderId: event.data.orderId, state: event.data.payment.state });
        res.writeHead(204).end();
      } catch {
        merchant.unverified++;
        res.writeHead(400).end();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(Object.assign(merchant, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/momo` }))),
  );
}

export async function benchSoak(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-soak-'));
  const sandbox = await startSandbox({ port: 0, pushDelayMs: 20, log: () => {} });
  const merchant = await startMerchant();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serve = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/cli.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...sandboxEnv(sandbox, port),
      MOMO_DATA_DIR: dataDir, // the default store (a file), in a folder of this run's own
      MOMO_SERVER_SECRET: SERVER_SECRET,
      MOMO_MERCHANT_WEBHOOK_URL: merchant.url,
      MOMO_MERCHANT_WEBHOOK_SECRET: MERCHANT_SECRET,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  serve.stderr!.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4_000)));
  let exit: string | null = null;
  serve.on('exit', (code, signal) => (exit = `exit code ${code}, signal ${signal}`));
  const alive = () => {
    if (exit) throw new Error(`momo-checkout serve died (${exit}):\n${stderr}`);
  };

  let serverApiCalls = 0;
  let pageCalls = 0;
  let healthChecks = 0;
  const api = async (path: string, body?: unknown) => {
    serverApiCalls++;
    const response = await fetch(`${base}/momo/server${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${SERVER_SECRET}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`server API ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const health = setInterval(() => {
    healthChecks++;
    fetch(`${base}/healthz`).catch(() => {});
  }, 250);

  const started = Date.now();
  try {
    await until('momo-checkout serve to be ready', async () => (alive(), (await fetch(`${base}/readyz`)).status === 200), 30_000);
    const run = `${process.pid}-${Date.now().toString(36)}`;
    let next = 0;
    const payOne = async (orderId: string) => {
      const { token } = (await api('/checkouts', { orderId, amount: '5000', currencyCode: 'XOF' })) as { token: string };
      pageCalls++;
      const paid = await fetch(`${base}/momo/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ phoneNumber: APPROVES, useWallet: false }),
      });
      if (!paid.ok) throw new Error(`pay ${orderId}: ${paid.status} ${await paid.text()}`);
      await until(`${orderId} to complete at the sandbox`, async () => sandbox.control.transaction(orderId)?.status === 'completed', 30_000);
      await until(`${orderId} to be completed at the companion`, async () => ((await api(`/payments/${orderId}`)) as { payment?: { state?: string } }).payment?.state === 'completed', 30_000);
      await sandbox.control.reemit(orderId, 'duplicate');
      await sandbox.control.reemit(orderId, 'out-of-order');
    };
    const worker = async () => {
      while (next < ORDERS) {
        alive();
        await payOne(`soak-${run}-${next++}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await until('every order at the merchant', async () => (alive(), [...merchant.received.values()].filter((event) => event.state === 'completed').length >= ORDERS), 120_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // late duplicates, if any, arrive here
    alive();
  } finally {
    clearInterval(health);
    serve.kill('SIGTERM');
    await new Promise((resolve) => (exit ? resolve(null) : serve.once('exit', resolve)));
    await sandbox.close();
    merchant.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;

  const deliveries = sandbox.control.deliveries();
  const verified = deliveries.filter((delivery) => delivery.ok).length;
  const completedPerOrder = new Map<string, number>();
  for (const event of merchant.received.values()) if (event.state === 'completed') completedPerOrder.set(event.orderId, (completedPerOrder.get(event.orderId) ?? 0) + 1);
  const twice = [...completedPerOrder.values()].filter((count) => count > 1).length;
  const lost = ORDERS - completedPerOrder.size;
  if (lost > 0 || twice > 0 || merchant.unverified > 0) throw new Error(`soak: ${lost} orders lost, ${twice} delivered twice as completed, ${merchant.unverified} unverified deliveries`);
  return [
    { name: `soak on Node ${process.versions.node}: orders paid and read back`, value: ORDERS, unit: 'orders' },
    { name: 'soak: notifications the service posted, answered 2xx', value: verified, unit: 'notifications' },
    { name: 'soak: notifications answered otherwise (lost)', value: deliveries.length - verified, unit: 'notifications' },
    { name: 'soak: server API calls', value: serverApiCalls, unit: 'calls' },
    { name: 'soak: page route calls (pay)', value: pageCalls, unit: 'calls' },
    { name: 'soak: health checks while running', value: healthChecks, unit: 'checks' },
    { name: 'soak: payment.updated to the merchant, verified', value: merchant.received.size, unit: 'deliveries' },
    { name: 'soak: orders lost / completed delivered twice', value: lost + twice, unit: 'orders' },
    { name: 'soak: duration', value: seconds, unit: 's' },
    { name: 'soak: up throughout, then stopped cleanly on SIGTERM (1 = yes)', value: exit === 'exit code 0, signal null' ? 1 : 0, unit: '' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await benchSoak()) console.log(`${figure.name.padEnd(58)} ${String(figure.value).padStart(10)} ${figure.unit}`);
}
