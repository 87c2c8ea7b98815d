/** Each adapter serves the companion on a real server, and keeps the webhook's raw body intact. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCompanion, expressMiddleware, honoRoutes, rawNumber, signWebhook, toNodeHandler, type Companion } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
});
after(async () => sandbox.close());

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function companionAt(publicUrl: string): Companion {
  return createCompanion({
    baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], publicUrl,
    allowedOrigins: ['http://shop.test'], allowInsecureLocalUrls: true, log: silentLogger,
  });
}

async function exercise(companion: Companion, base: string) {
  const { token } = await companion.createCheckout({ orderId: `adapter-${Date.now()}-${Math.random()}`, amount: '5000', currencyCode: 'XOF' });
  const checkout = await fetch(`${base}/checkout`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(checkout.status, 200);
  assert.equal(((await checkout.json()) as { amount: string }).amount, '5000');
  // A body whose number is written `5000.0`: re-serialising it would break the signature.
  const body = await signWebhook({ phoneNumber: '+2290196000001', amount: rawNumber('5000.0'), orderId: 'unknown-order', status: 'completed' }, sandbox.webhookSecret);
  const webhook = await fetch(`${base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal(webhook.status, 200, 'the raw body reached the verifier untouched');
}

describe('adapters', () => {
  it('node:http', async () => {
    let companion: Companion | undefined;
    const server = createServer((req, res) => void toNodeHandler(companion!)(req, res));
    const origin = await listen(server);
    companion = companionAt(`${origin}/momo`);
    try {
      await exercise(companion, `${origin}/momo`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('Express 5, mounted before express.json()', async () => {
    const app = express();
    let companion: Companion | undefined;
    app.use('/momo', (req, res, next) => expressMiddleware(companion!)(req, res, next));
    app.use(express.json());
    const server = createServer(app);
    const origin = await listen(server);
    companion = companionAt(`${origin}/momo`);
    try {
      await exercise(companion, `${origin}/momo`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('Hono', async () => {
    let companion: Companion | undefined;
    const app = new Hono();
    app.all('/momo/*', (c) => companion!.fetch(c.req.raw));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    companion = companionAt(`${origin}/momo`);
    try {
      await exercise(companion, `${origin}/momo`);
      const routes = honoRoutes(companion, '/momo');
      const response = await routes.request(`${origin}/momo/checkout`);
      assert.equal(response.status, 401, 'honoRoutes forwards to the companion');
    } finally {
      server.close();
    }
  });
});
