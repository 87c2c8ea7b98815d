/**
 * Issue 45 in Chromium: a companion process dies while the payer's pay is under way, as in a
 * rolling restart. The payer presses Pay once; the process dies (`kill -9`) while it looks up the
 * payer's operator, and the other process (on the same file store) takes the traffic. The page's
 * request is cut before any answer, and Chromium sends it again on a new connection (a request cut
 * on a reused connection before any byte of answer is resent by the browser), so it reaches the
 * other process while the dead one's pay lock still stands (`409 PAYMENT_IN_PROGRESS`, no payment
 * yet). The element stays on "sending", re-posts by itself, and ends on the payment's outcome with
 * no second press; the service gets one pay-in.
 *
 * The companions are child processes (test/crash/companion-child.ts); a small front here serves the
 * page and the element's script and passes `/momo/*` to whichever process is current, as a load
 * balancer in a rolling restart does.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildDemoBundle } from '../../demo/bundle.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { silentLogger } from '../../src/server/log.js';
import { createCheckoutIn, freePort, startChild, tempDir, until, type Child } from '../crash/support.js';
import { enterNumber, launchChromium } from './harness.js';

const approves = '+2290196000001';

/** Serves the page and the script, and passes `/momo/*` to the process `upstreamPort()` names. */
function startFront(script: Buffer, token: () => string, upstreamPort: () => number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/momo-checkout.js" defer></script></head>
<body><main><momo-checkout endpoint="/momo" token="${token()}" lang="en"></momo-checkout></main></body></html>`);
      return;
    }
    if (req.url === '/momo-checkout.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
      return;
    }
    // The companion allows the shop's origin; this front stands in for the shop's own server.
    const headers = { ...req.headers, ...(req.headers.origin ? { origin: 'http://shop.test' } : {}) };
    const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort(), path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    // A process killed mid-request: the page's connection is cut, as a real front cuts it.
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

describe('e2e: a companion process killed while the payer pays', () => {
  let sandbox: RunningSandbox;
  let browser: Browser;
  let script: Buffer;
  const sandboxLog: string[] = [];
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 1000, log: (line) => sandboxLog.push(line) });
    script = (await buildDemoBundle()).code;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('a process dies mid-lookup: the element waits out the dead lock by itself and ends on "Payment received"', async () => {
    const dataDir = tempDir('momo-e2e-pay-lock-');
    const storeEnv = { MOMO_DATA_DIR: dataDir };
    const merchant: OpenedStore = await openStoreFromEnv(storeEnv, { log: silentLogger });
    await merchant.hub?.close();
    const orderId = `e2e-pay-lock-${Date.now()}`;
    const token = await createCheckoutIn(merchant.store, orderId);
    const ports = [await freePort(), await freePort()];
    let current = 0;
    const front = await startFront(script, () => token, () => ports[current]!);
    const env = (port: number) => ({
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      ...storeEnv,
      PORT: String(port),
      PUBLIC_URL: `${front.url}/momo`,
      CHILD_UPDATES_FILE: join(dataDir, 'updates.jsonl'),
    });
    // Two processes, as a round-robin front spreads a payer's requests: the number is looked up by
    // the second (current = 1), the pay lands on the first, which has not looked it up (each process
    // keeps its lookups in memory) and dies in that lookup; the second then takes all the traffic.
    const children: Child[] = [await startChild(env(ports[0]!)), await startChild(env(ports[1]!))];
    current = 1;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const payAnswers: number[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/momo/checkout/pay') payAnswers.push(response.status());
      });
      const states: string[] = [];
      await page.exposeFunction('__state', (status: string) => states.push(status));
      await page.addInitScript(() => document.addEventListener('momo-state-change', (event) => (globalThis as unknown as { __state: (s: string) => void }).__state((event as CustomEvent<{ status: string }>).detail.status)));
      await page.goto(front.url);
      await enterNumber(page, approves);
      const pay = page.getByRole('button', { name: /^Pay / });
      await pay.waitFor();
      // The number's lookup and preview done (on the second process), so the pay is the first request the first process gets.
      await until('the pay button', () => states.at(-1) === 'ready');

      current = 0;
      const mark = sandboxLog.length;
      sandbox.control.injectFault({ kind: 'hang', path: '/v1/corridors/available' });
      await pay.click();
      await until('the pay to reach the lookup', () => sandboxLog.slice(mark).some((line) => line.includes('injected fault hang') && line.includes('/v1/corridors/available')));
      current = 1;
      await children[0]!.kill9();
      const killedAt = performance.now();

      await page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor({ timeout: 20_000 });
      console.log(`e2e, the file store: the page's pay accepted ${Math.round(performance.now() - killedAt)} ms after the kill; pay answers: ${payAnswers.join(', ')}`);
      await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 20_000 });

      assert.ok(payAnswers.includes(409), `the page met the dead process's lock (pay answers: ${payAnswers.join(', ')})`);
      assert.deepEqual(states.slice(states.indexOf('submitting')), ['submitting', 'awaiting-approval', 'succeeded'], 'on "sending" until the payment, no refusal, no error, no second press');
      const payIns = sandbox.control.transactions().filter((entry) => entry.kind === 'payin' && entry.orderId.startsWith(orderId));
      assert.equal(payIns.length, 1, 'one pay-in at the service');
    } finally {
      await context.close();
      for (const child of children) await child.kill9();
      front.server.closeAllConnections();
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
      await merchant.store.close?.();
    }
  });
});
