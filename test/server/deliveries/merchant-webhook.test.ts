/**
 * Standalone mode's notifications to the merchant backend: every transition POSTed, signed as
 * Standard Webhooks says, at least once and in order, retried from the durable queue while the
 * endpoint is down, also across a restart of the companion, with a stable `webhook-id`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { CompanionConfigError, createCompanion, createMemoryStore, toNodeHandler, type CheckoutStore, type Companion, type CompanionOptions } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { newOrderId, shopOrigin, startHarness } from '../harness.js';
import { listen, merchantSecret, startReceiver, stop, until, verified } from './merchant-receiver.js';

const serverSecret = 'test-server-secret-0123456789abcdef0123456789';
const approve = '+2290196000001';

const fast: Partial<CompanionOptions> = { deliveryRetryDelaysMs: [40], maintenanceIntervalMs: 50, setupChecksAtStart: false };

describe('merchant webhook', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => receiver.close());

  it('POSTs each transition, in order, signed (Standard Webhooks), with the update as data', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const h = await startHarness({ ...fast, merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: approve, useWallet: false } });
      await until('two notifications', () => receiver.received.filter((item) => item.body.includes(orderId)).length >= 2);
      const mine = receiver.received.filter((item) => item.body.includes(orderId));
      const events = mine.map(verified);
      assert.deepEqual(events.map((event) => event.type), ['payment.updated', 'payment.updated']);
      assert.deepEqual(events.map((event) => event.data.payment.state), ['pending', 'completed']);
      assert.equal(events[1]!.data.previousState, 'pending');
      assert.equal(events[1]!.data.amount, '5000');
      assert.equal(events[1]!.data.currencyCode, 'XOF');
      assert.deepEqual(mine.map((item) => item.id), events.map((event) => event.data.idempotencyKey), 'webhook-id is the idempotency key');
      assert.ok(!mine.some((item) => item.body.includes(approve)), 'no full phone number in the notification');
      // The callback sink (the harness's onPaymentUpdate) got the same transitions.
      assert.deepEqual(h.updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state), ['pending', 'completed']);

      const tampered = { ...mine[1]!, body: mine[1]!.body.replace('"completed"', '"failed"') };
      assert.throws(() => verified(tampered), /No matching signature/);
    } finally {
      await h.close();
    }
  });

  it('does not follow a redirect and counts it as a failure; a hanging endpoint is a timeout', async () => {
    receiver.received.length = 0;
    let hits = 0;
    const target = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await listen(target);
    receiver.answer = (_req, res) => {
      res.setHeader('location', `http://127.0.0.1:${(target.address() as AddressInfo).port}/elsewhere`);
      return 307;
    };
    // Two seconds for an answer: at 300 ms, under a load of 17 to 23, the redirect's own answer came
    // too late and its attempt was logged as a timeout instead of a 307 (3 runs in 6).
    const h = await startHarness({ ...fast, deliveryRetryDelaysMs: [60_000], deliveryTimeoutMs: 2_000, merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret, serverSecret });
    try {
      const redirected = newOrderId();
      await h.json('/checkout/pay', { token: await h.checkout(redirected), body: { phoneNumber: approve, useWallet: false } });
      const read = async (orderId: string) =>
        (await (await fetch(`${h.base}/server/payments/${orderId}`, { headers: { authorization: `Bearer ${serverSecret}` } })).json()) as any;
      await until('the redirect attempt logged', async () => (await read(redirected)).deliveries.log.some((attempt: any) => attempt.sink === 'webhook'));
      const details = await read(redirected);
      const attempt = details.deliveries.log.find((item: any) => item.sink === 'webhook');
      assert.equal(attempt.ok, false);
      assert.equal(attempt.status, 307);
      assert.match(attempt.error, /redirects are not followed/);
      assert.equal(hits, 0, 'the redirect target was never called');
      const pending = details.deliveries.pending.filter((item: any) => item.sink === 'webhook');
      // Named for what they are: the payment state the notification reports, beside the delivery's tries
      // (and 0.1.0's names, deprecated: server-api/deprecated-fields.ts).
      assert.deepEqual(Object.keys(pending[0]).sort(), ['attempts', 'createdAt', 'id', 'nextAttemptAt', 'reportedState', 'sink', 'state', 'webhookId']);
      assert.equal(pending[0].reportedState, 'pending');
      assert.equal(pending[0].attempts, 1);
      assert.ok(Date.parse(pending[0].nextAttemptAt) > Date.now() + 30_000, 'retried later, with backoff');

      receiver.answer = () => null;
      const hanging = newOrderId();
      await h.json('/checkout/pay', { token: await h.checkout(hanging), body: { phoneNumber: approve, useWallet: false } });
      await until('the timeout logged', async () => (await read(hanging)).deliveries.log.some((item: any) => item.sink === 'webhook'));
      const timedOut = (await read(hanging)).deliveries.log.find((item: any) => item.sink === 'webhook');
      assert.equal(timedOut.ok, false);
      assert.match(timedOut.error, /no answer within 2000 ms/);
    } finally {
      await h.close();
      await stop(target);
    }
  });

  it('refuses a configuration it cannot sign with, saying how to make a secret', () => {
    const base = { baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_x', webhookSecrets: ['whsec_x'], publicUrl: 'http://127.0.0.1:1/momo', allowedOrigins: [shopOrigin], allowInsecureLocalUrls: true, log: silentLogger };
    assert.throws(() => createCompanion({ ...base, merchantWebhookUrl: receiver.url }), (error: unknown) => error instanceof CompanionConfigError && /set both/.test(error.message));
    assert.throws(
      () => createCompanion({ ...base, merchantWebhookUrl: receiver.url, merchantWebhookSecret: 'whsec_c2hvcnQ=' }),
      (error: unknown) => error instanceof CompanionConfigError && /openssl rand -base64 32/.test(error.message),
    );
    assert.throws(() => createCompanion({ ...base, serverSecret: 'short' }), (error: unknown) => error instanceof CompanionConfigError && /at least 32/.test(error.message));
  });
});

describe('merchant webhook across a restart', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: Server;
  let base: string;
  let current: Companion | undefined;
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
    receiver = await startReceiver();
    server = createServer((req, res) => (current ? toNodeHandler(current)(req, res) : void res.writeHead(503).end()));
    await listen(server);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/momo`;
  });
  after(async () => {
    await current?.close();
    await stop(server);
    await receiver.close();
    await sandbox.close();
  });

  const start = (store: CheckoutStore) =>
    createCompanion({
      baseUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      webhookSecrets: [sandbox.webhookSecret],
      publicUrl: base,
      allowedOrigins: [shopOrigin],
      allowInsecureLocalUrls: true,
      log: silentLogger,
      store,
      serverSecret,
      merchantWebhookUrl: receiver.url,
      merchantWebhookSecret: merchantSecret,
      ...fast,
    });

  it('an endpoint down for a while, then up after a restart: every transition delivered once acknowledged, in order, each webhook-id stable', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 503;
    const store = createMemoryStore();
    const first = start(store);
    current = first;
    /** The idempotency key of an order's transition: `<orderId>.<lifeId>.<version>`. */
    const keyOf = async (orderId: string, version: number) => `${orderId}.${(await store.getByOrderId(orderId))?.lifeId}.${version}`;
    const orders = [newOrderId(), newOrderId()];
    for (const orderId of orders) {
      const { token } = await first.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      const paid = await fetch(`${base}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: shopOrigin, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: approve, useWallet: false }),
      });
      assert.equal(paid.status, 200);
    }
    for (const orderId of orders) await until(`${orderId} completed`, async () => (await first.getPayment(orderId))?.state === 'completed');
    await until('several failed attempts per order', () => orders.every((orderId) => receiver.received.filter((item) => item.id.startsWith(`${orderId}.`)).length >= 3));
    await first.close();
    current = undefined;
    const failedBefore = receiver.received.length;
    assert.ok(receiver.received.every((item) => item.answered === 503));
    // While failing, only the first transition of each order is tried: the second waits its turn.
    for (const orderId of orders) assert.deepEqual(new Set(receiver.received.filter((item) => item.id.startsWith(`${orderId}.`)).map((item) => item.id)), new Set([await keyOf(orderId, 1)]));

    receiver.answer = () => 200;
    current = start(store); // the restart: a new process on the same store
    await until('every transition acknowledged', () => receiver.received.filter((item) => item.answered === 200).length >= 4);
    await until('the queue is empty', async () => {
      const records = await Promise.all(orders.map((orderId) => store.getByOrderId(orderId)));
      return records.every((record) => record!.deliveries.length === 0);
    });
    assert.ok(receiver.received.length > failedBefore);
    for (const orderId of orders) {
      const attempts = receiver.received.filter((item) => item.id.startsWith(`${orderId}.`));
      const delivered = attempts.filter((item) => item.answered === 200);
      assert.deepEqual(delivered.map((item) => verified(item).data.payment.state), ['pending', 'completed'], 'in order');
      const [firstKey, secondKey] = [await keyOf(orderId, 1), await keyOf(orderId, 2)];
      assert.deepEqual(delivered.map((item) => item.id), [firstKey, secondKey]);
      // Every attempt of a transition carried the same id and the same body; each one verifies.
      for (const item of attempts) {
        const event = verified(item);
        assert.equal(item.id, event.data.idempotencyKey);
        assert.equal(item.body, delivered.find((done) => done.id === item.id)!.body);
      }
      const details = (await (await fetch(`${base}/server/payments/${orderId}`, { headers: { authorization: `Bearer ${serverSecret}` } })).json()) as any;
      assert.deepEqual(details.deliveries.pending, []);
      const log = details.deliveries.log as Array<{ webhookId: string; ok: boolean; status: number }>;
      assert.ok(log.some((attempt) => !attempt.ok && attempt.status === 503 && attempt.webhookId === firstKey), 'failures are in the delivery log');
      assert.deepEqual(log.filter((attempt) => attempt.ok).map((attempt) => [attempt.webhookId, attempt.status]), [[firstKey, 200], [secondKey, 200]]);
    }
  });
});
