/**
 * One companion in front of the sandbox, for the adapter tests: each adapter serves it on a real
 * server on 127.0.0.1 and must pass the page's routes and the webhook's RAW body through untouched.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCompanion, createMemoryStore, rawNumber, signWebhook, type Companion } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';

export const shopOrigin = 'http://shop.test';

export interface AdapterFixture {
  sandbox: RunningSandbox;
  companion: Companion;
  /** Builds the companion once the server's URL is known (publicUrl must be where it is served). */
  start(publicUrl: string): Companion;
  close(): Promise<void>;
}

export async function startFixture(): Promise<AdapterFixture> {
  const sandbox = await startSandbox({ port: 0, pushDelayMs: 20, log: () => {} });
  const fixture: AdapterFixture = {
    sandbox,
    companion: undefined as unknown as Companion,
    start(publicUrl) {
      fixture.companion = createCompanion({
        baseUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        webhookSecrets: [sandbox.webhookSecret],
        publicUrl,
        allowedOrigins: [shopOrigin],
        allowInsecureLocalUrls: true,
        log: silentLogger,
        store: createMemoryStore(),
      });
      return fixture.companion;
    },
    async close() {
      await fixture.companion?.close();
      await sandbox.close();
    },
  };
  return fixture;
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The checks every adapter must pass, over real HTTP at `base` (`<origin><mountPath>`):
 * a page route with its token and CORS, and a signed webhook whose raw body is verified and applied.
 */
export async function exerciseCompanion(fixture: AdapterFixture, base: string): Promise<{ pageStatus: number; allowOrigin: string | null; webhookStatus: number; state: string | undefined }> {
  const orderId = `adapter-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const { token } = await fixture.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
  const pay = await fetch(`${base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shopOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: '+2290196000003', useWallet: false }),
  });
  await pay.arrayBuffer();
  // Spaces and a decimal written as `5000.0` survive only if nobody re-serialised the body (§6.3).
  const signed = await signWebhook({ phoneNumber: '+2290196000003', amount: rawNumber('5000.0'), orderId, status: 'completed' }, fixture.sandbox.webhookSecret);
  const webhook = await fetch(`${base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signed });
  await webhook.arrayBuffer();
  let state: string | undefined;
  for (let i = 0; i < 200; i++) {
    state = (await fixture.companion.getPayment(orderId))?.state;
    if (state === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { pageStatus: pay.status, allowOrigin: pay.headers.get('access-control-allow-origin'), webhookStatus: webhook.status, state };
}

/** What every adapter must do: `exerciseCompanion` through it, with the same four expectations. */
export async function assertAdapterServes(fixture: AdapterFixture, base: string): Promise<void> {
  const result = await exerciseCompanion(fixture, base);
  assert.equal(result.pageStatus, 200);
  assert.equal(result.allowOrigin, shopOrigin);
  assert.equal(result.webhookStatus, 200);
  assert.equal(result.state, 'completed');
}
