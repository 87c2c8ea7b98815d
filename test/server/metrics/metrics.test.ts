/**
 * `GET <publicUrl>/metrics` after three payments through the sandbox over real HTTP: one paid, one
 * declined, one whose notification was refused (the sandbox re-sends it signed with a wrong secret):
 * the counters say exactly that. And never public: 401 without the token or with another one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCompanion, createMemoryStore } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { eventually, metricsToken, scrape } from './scrape.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };

describe('metrics after a paid, a failed and a refused-notification payment', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metricsToken, metricsStoreGaugesEveryMs: 0 });
  });
  after(async () => h.close());

  it('counts exactly those payments, notifications, deliveries and service calls', async () => {
    const pay = async (phoneNumber: string) => {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      const { status } = await h.json('/checkout/pay', { token, body: { phoneNumber, useWallet: false } });
      assert.equal(status, 200);
      return orderId;
    };
    const paid = await pay(push.approve);
    const declined = await pay(push.decline);
    const unanswered = await pay(push.noAnswer);
    await h.waitFor(paid, (view) => view.state === 'completed');
    await h.waitFor(declined, (view) => view.state === 'failed');
    const forged = await h.sandbox.control.reemit(unanswered, 'forged');
    assert.equal(forged.httpStatus, 401, 'the companion refused the forged notification');

    const genuine = h.sandbox.control.deliveries().filter((delivery) => delivery.httpStatus === 200).length;
    await eventually(async () => {
      const metrics = await scrape(h.base);
      assert.equal(metrics.value('momo_notifications_received_total', { result: 'applied' }), genuine);
      assert.equal(metrics.value('momo_merchant_deliveries_total', { sink: 'callback', result: 'delivered' }), h.updates.length);
    });
    const metrics = await scrape(h.base);
    const operator = (await h.companion.getPayment(paid))!.operator!.name;

    assert.equal(metrics.value('momo_payments_total', { state: 'started', operator }), 3);
    assert.equal(metrics.value('momo_payments_total', { state: 'completed', operator }), 1);
    assert.equal(metrics.value('momo_payments_total', { state: 'failed', operator }), 1);
    assert.equal(metrics.find('momo_payments_total').length, 3, 'no other state or operator');

    assert.equal(metrics.value('momo_notifications_received_total', { result: 'refused_signature' }), 1);
    assert.equal(genuine, 2, 'the sandbox sent one completed and one failed notification');
    for (const result of ['ignored', 'duplicate', 'refused_timestamp', 'refused_body', 'too_large', 'unavailable']) {
      assert.equal(metrics.value('momo_notifications_received_total', { result }), 0, result);
    }

    for (const result of ['refused', 'failed', 'gave_up']) assert.equal(metrics.value('momo_merchant_deliveries_total', { sink: 'callback', result }), 0);
    assert.equal(metrics.value('momo_upstream_request_duration_seconds_count', { route: 'pay-in', answer: '200' }), 3);
    assert.ok(metrics.value('momo_upstream_request_duration_seconds_sum', { route: 'pay-in', answer: '200' }) > 0);

    // Store-wide: the unanswered payment is open; nothing waits in the inbox or for the merchant.
    assert.equal(metrics.value('momo_payments_open'), 1);
    assert.equal(metrics.value('momo_inbox_unprocessed'), 0);
    assert.equal(metrics.value('momo_merchant_delivery_backlog', { sink: 'callback' }), 0);
    assert.equal(metrics.value('momo_payments_stuck', { kind: 'payment' }), 0, 'not stuck before staleAfterMinutes');
    assert.equal(metrics.value('momo_operator_completion_ratio', { operator, window: '1h' }), 0.5);
    assert.equal(metrics.value('momo_operator_finished_payments', { operator, window: '1h' }), 2);
    assert.equal(metrics.value('momo_store_read_ok'), 1);
    assert.equal(metrics.value('momo_status_streams_open'), 0);

    // The Node defaults: event loop lag and heap.
    assert.ok(metrics.find('nodejs_eventloop_lag_seconds').length === 1);
    assert.ok(metrics.value('nodejs_heap_size_used_bytes') > 0);
    assert.equal(metrics.types.get('momo_payments_total'), 'counter');
    assert.equal(metrics.types.get('momo_upstream_request_duration_seconds'), 'histogram');
  });

  it('counts a replay as duplicate and a notification an hour old as refused_timestamp', async () => {
    const before = await scrape(h.base);
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } })).status, 200);
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal((await h.sandbox.control.reemit(orderId, 'duplicate')).httpStatus, 200);
    assert.equal((await h.sandbox.control.reemit(orderId, 'stale')).httpStatus, 400);
    await eventually(async () => {
      const metrics = await scrape(h.base);
      const grew = (result: string) => metrics.value('momo_notifications_received_total', { result }) - before.value('momo_notifications_received_total', { result });
      assert.deepEqual([grew('applied'), grew('duplicate'), grew('refused_timestamp'), grew('refused_signature')], [1, 1, 1, 0]);
    });
  });

  it('refuses a scrape without the token, or with another one, with 401 and WWW-Authenticate', async () => {
    const none = await fetch(`${h.base}/metrics`);
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer realm=/);
    assert.match(await none.text(), /Authorization: Bearer <MOMO_METRICS_TOKEN or MOMO_SERVER_SECRET>/);
    const wrong = await fetch(`${h.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}x` } });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /not this companion's MOMO_METRICS_TOKEN/);
    assert.doesNotMatch(await (await fetch(`${h.base}/metrics`, { headers: { authorization: 'Basic Zm9vOmJhcg==' } })).text(), /momo_/);
  });
});

describe('metrics credentials', () => {
  it('accepts the server secret too', async () => {
    const serverSecret = 'server-secret-for-tests-0123456789abcdef';
    const h = await startHarness({ serverSecret });
    try {
      const metrics = await scrape(h.base, serverSecret);
      assert.equal(metrics.value('momo_notifications_received_total', { result: 'applied' }), 0);
      assert.equal((await fetch(`${h.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status, 401);
    } finally {
      await h.close();
    }
  });

  it('is off, with a 404 saying how to turn it on, when neither a metrics token nor a server secret is set', async () => {
    const h = await startHarness();
    try {
      const response = await fetch(`${h.base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      assert.equal(response.status, 404);
      assert.match(await response.text(), /Metrics are off on this companion: set MOMO_METRICS_TOKEN/);
    } finally {
      await h.close();
    }
  });

  it('reads the store-wide gauges at most every metricsStoreGaugesEveryMs (30 s by default) of the companion clock', async () => {
    const clock = { shift: 0, now: () => Date.now() + clock.shift };
    const h = await startHarness({ metricsToken, now: clock.now }, { now: clock.now });
    try {
      assert.equal((await scrape(h.base)).value('momo_payments_open'), 0);
      const token = await h.checkout();
      assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } })).status, 200);
      const soon = await scrape(h.base);
      assert.equal(soon.value('momo_payments_open'), 0, 'the last read, not a new one');
      assert.equal(soon.value('momo_payments_total', { state: 'started' }), 1, 'counters are always current');
      clock.shift = 30_000;
      assert.equal((await scrape(h.base)).value('momo_payments_open'), 1);
    } finally {
      await h.close();
    }
  });

  it('refuses a metrics token shorter than 32 characters at creation', async () => {
    const options = { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_x', webhookSecrets: ['whsec_x'], publicUrl: 'http://127.0.0.1:9/momo', allowedOrigins: ['http://shop.test'], allowInsecureLocalUrls: true, store: createMemoryStore(), setupChecksAtStart: false };
    assert.throws(() => createCompanion({ ...options, metricsToken: 'short' }), /metricsToken must be at least 32 characters/i);
  });
});
