/**
 * Two companion processes on one shared store (Redis, PostgreSQL) behind a round-robin front, as a
 * PM2 cluster or two containers behind a load balancer would run them: they share checkouts,
 * payments, the pay lock, the inbox, the deliveries, the status streams, and the limits (one limit
 * for the pair, not one per process). Run once per store by two-processes*.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { signWebhook } from '../../src/server/index.js';
import type { SharedStoreServer } from '../support/shared-stores.js';
import { createCheckoutIn, freePort, readUpdates, startChild, streamUntil, tempDir, until, type Child } from './support.js';

const approve = '+2290196000001';
const noAnswer = '+2290196000003';
/** Valid Benin mobile numbers on the sandbox's push operator, none of them a scripted test number. */
const strangers = Array.from({ length: 10 }, (_, i) => `+22901960001${String(10 + i)}`);
const shop = 'http://shop.test';

/** Round robin over the two processes, request by request (no stickiness: the worst case). */
function startFront(ports: number[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const server = createServer((req, res) => {
    const port = ports[next++ % ports.length]!;
    const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    // A page that goes away closes its stream on the process too, as a real proxy does.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

const lookup = (base: string, token: string, phoneNumber: string) =>
  fetch(`${base}/checkout/lookup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shop, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber }),
  });

const pay = (base: string, token: string, phoneNumber: string) =>
  fetch(`${base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shop, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber, useWallet: false }),
  });

/** The suite on the store `start` brings up (a fresh one for the file). */
export function twoProcessesOn(name: string, start: () => Promise<SharedStoreServer>): void {
  let sandbox: RunningSandbox;
  let backend: SharedStoreServer;
  let merchant: OpenedStore;
  let front: Server;
  let frontBase: string;
  let children: Child[] = [];
  let updatesFile: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
    backend = await start();
    const storeEnv = backend.freshEnv();
    const ports = [await freePort(), await freePort()];
    const started = await startFront(ports);
    front = started.server;
    frontBase = `http://127.0.0.1:${started.port}/momo`;
    updatesFile = join(tempDir('momo-two-'), 'updates.jsonl');
    const env = {
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      ...storeEnv,
      PUBLIC_URL: frontBase,
      CHILD_UPDATES_FILE: updatesFile,
    };
    children = await Promise.all(ports.map((port) => startChild({ ...env, PORT: String(port) })));
    merchant = await openStoreFromEnv(storeEnv);
  });

  after(async () => {
    await Promise.all(children.map((child) => child.kill9()));
    await merchant?.store.close?.();
    await merchant?.hub?.close();
    front?.closeAllConnections();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await backend?.stop();
    await sandbox?.close();
  });

  describe(`two companion processes on one ${name}`, () => {
    it('a stream held by process B hears a notification that process A verified', async () => {
      const orderId = `two-stream-${Date.now()}`;
      const token = await createCheckoutIn(merchant.store, orderId);
      const [a, b] = children as [Child, Child];
      assert.equal((await (await pay(a.base, token, noAnswer)).json()).state, 'pending');
      const heard = streamUntil(b.base, token, (view) => view.state === 'completed');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, sandbox.webhookSecret);
      const posted = await fetch(`${a.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(posted.status, 200);
      assert.equal((await heard).state, 'completed');
    });

    it('20 concurrent pays with one token, spread over both processes, reach the service as one pay-in', async () => {
      const orderId = `two-pay-${Date.now()}`;
      const token = await createCheckoutIn(merchant.store, orderId);
      const answers = await Promise.all(Array.from({ length: 20 }, () => pay(frontBase, token, approve)));
      for (const answer of answers) await answer.arrayBuffer();
      assert.ok(answers.some((answer) => answer.status === 200));
      assert.equal(sandbox.control.transactions().filter((entry) => entry.orderId === orderId).length, 1);
      await until('the payment to complete', async () => (await merchant.store.getByOrderId(orderId))?.payment?.state === 'completed');
    });

    it('one notification delivered to each process at once is applied and reported once', async () => {
      const orderId = `two-dup-${Date.now()}`;
      const token = await createCheckoutIn(merchant.store, orderId);
      assert.equal((await (await pay(frontBase, token, noAnswer)).json()).state, 'pending');
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, sandbox.webhookSecret);
      const statuses = await Promise.all(children.map(async (child) => (await fetch(`${child.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status));
      assert.deepEqual(statuses, [200, 200]);
      await until('completed to be reported', () => readUpdates(updatesFile).some((line) => line.orderId === orderId && line.state === 'completed'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const record = await merchant.store.getByOrderId(orderId);
      assert.equal(record?.payment?.state, 'completed');
      assert.equal(readUpdates(updatesFile).filter((line) => line.orderId === orderId && line.state === 'completed').length, 1);
    });
  });

  describe(`two companion processes on one ${name}: one limit for the pair`, () => {
    it('pay calls per checkout: 20 then 429 across both processes, not 20 on each', async () => {
      const token = await createCheckoutIn(merchant.store, `two-limit-pay-${Date.now()}`);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const answer = await pay(frontBase, token, noAnswer);
        await answer.arrayBuffer();
        statuses.push(answer.status);
      }
      // 20 a minute refill one call every 3 s: at most one more in the time this takes.
      const letThrough = statuses.filter((status) => status !== 429).length;
      assert.ok(letThrough >= 20 && letThrough <= 21, `calls let through: ${letThrough} of 30 (${statuses.join(',')})`);
    });

    it('distinct numbers per checkout: 5 across both processes, the rest TOO_MANY_NUMBERS', async () => {
      const token = await createCheckoutIn(merchant.store, `two-limit-numbers-${Date.now()}`);
      const codes: string[] = [];
      for (const phoneNumber of strangers) {
        const answer = await lookup(frontBase, token, phoneNumber);
        const body = (await answer.json()) as { error?: { code: string } };
        codes.push(answer.status === 200 ? 'ok' : (body.error?.code ?? String(answer.status)));
      }
      assert.deepEqual(codes, [...Array(5).fill('ok'), ...Array(5).fill('TOO_MANY_NUMBERS')]);
    });

    it('status streams per checkout: 5 across both processes, and one closed on A frees a slot on B', async () => {
      const token = await createCheckoutIn(merchant.store, `two-limit-streams-${Date.now()}`);
      const [a, b] = children as [Child, Child];
      const open: Array<{ response: Response; abort: AbortController }> = [];
      const openOn = async (child: Child) => {
        const abort = new AbortController();
        const response = await fetch(`${child.base}/checkout/events`, { headers: { authorization: `Bearer ${token}`, origin: shop }, signal: abort.signal });
        if (response.status === 200) open.push({ response, abort });
        else await response.arrayBuffer();
        return response.status;
      };
      try {
        const statuses: number[] = [];
        for (const child of [a, b, a, b, a, b]) statuses.push(await openOn(child));
        assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
        open.shift()!.abort.abort(); // a stream held by A
        await until('the slot to be freed', async () => (await openOn(b)) === 200);
      } finally {
        for (const stream of open) stream.abort.abort();
      }
    });
  });
}
