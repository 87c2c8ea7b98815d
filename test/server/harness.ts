/**
 * A companion served over real HTTP on loopback (node adapter), in front of the sandbox over real
 * HTTP, so the sandbox's webhooks reach the companion's webhook route as they would in production.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentView } from '../../src/contract/companion.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCompanion, createMemoryStore, toNodeHandler, type Companion, type CompanionOptions, type PaymentUpdate } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';

export const shopOrigin = 'http://shop.test';

export interface Harness {
  sandbox: RunningSandbox;
  companion: Companion;
  /** `http://127.0.0.1:PORT/momo` */
  base: string;
  updates: PaymentUpdate[];
  call(path: string, init?: { method?: string; token?: string; body?: unknown; origin?: string | null; headers?: Record<string, string> }): Promise<Response>;
  json<T = any>(path: string, init?: Parameters<Harness['call']>[1]): Promise<{ status: number; body: T }>;
  checkout(orderId?: string, amount?: string, currencyCode?: string): Promise<string>;
  /** Resolves when the order's payment reaches `state` (polling the store, 5 s at most). */
  waitFor(orderId: string, predicate: (view: PaymentView) => boolean): Promise<PaymentView>;
  close(): Promise<void>;
}

let counter = 0;
export const newOrderId = () => `order-${process.pid}-${Date.now()}-${++counter}`;

/**
 * `sameOrigin`: the sandbox's approval page and logos are served on the companion's origin too (as
 * the demo serves them): the element opens an http approval page only from its companion's origin
 * (src/element/urls.ts), so a browser test of a wallet's page needs it there.
 */
export async function startHarness(overrides: Partial<CompanionOptions> = {}, sandboxOptions: { pushDelayMs?: number; now?: () => number; sameOrigin?: boolean } = {}): Promise<Harness> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}/momo`;
  const sandbox = await startSandbox({
    port: 0,
    pushDelayMs: sandboxOptions.pushDelayMs ?? 30,
    log: () => {},
    ...(sandboxOptions.now ? { now: sandboxOptions.now } : {}),
    ...(sandboxOptions.sameOrigin ? { payerUrl: `http://127.0.0.1:${port}` } : {}),
  });
  const updates: PaymentUpdate[] = [];
  const companion = createCompanion({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    webhookSecrets: [sandbox.webhookSecret],
    publicUrl: base,
    allowedOrigins: [shopOrigin],
    returnUrl: `${shopOrigin}/checkout`,
    allowInsecureLocalUrls: true,
    serviceTimeoutMs: 2000,
    log: silentLogger,
    store: createMemoryStore(),
    onPaymentUpdate: (update) => {
      updates.push(update);
    },
    ...overrides,
  });
  const companionHandler = toNodeHandler(companion);
  const payerPaths = ['/authorize/', '/logos/'];
  handler = (req, res) => {
    if (!sandboxOptions.sameOrigin || !payerPaths.some((path) => req.url?.startsWith(path))) return companionHandler(req, res);
    const upstream = request(`${sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };

  const call: Harness['call'] = (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const origin = init.origin === undefined ? shopOrigin : init.origin;
    if (origin) headers.origin = origin;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${base}${path}`, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'manual',
    });
  };
  const harness: Harness = {
    sandbox,
    companion,
    base,
    updates,
    call,
    async json(path, init) {
      const response = await call(path, init);
      return { status: response.status, body: await response.json() };
    },
    async checkout(orderId = newOrderId(), amount = '5000', currencyCode = 'XOF') {
      return (await companion.createCheckout({ orderId, amount, currencyCode })).token;
    },
    async waitFor(orderId, predicate) {
      const until = Date.now() + 5000;
      for (;;) {
        const view = await companion.getPayment(orderId);
        if (view && predicate(view)) return view;
        if (Date.now() > until) throw new Error(`payment of ${orderId} did not get there; last: ${JSON.stringify(view)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      await companion.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
    },
  };
  return harness;
}
