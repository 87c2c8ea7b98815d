/**
 * Sending notifications again on the merchant's request, and the test notification, through the
 * server API against a real endpoint: what was not acknowledged goes at once under its first
 * `webhook-id` (also after the worker gave up), the last one when all were, every one with
 * `?all=1`; a signed `test.ping` reports the endpoint's answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompanionOptions } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { merchantSecret, startReceiver, until, verified } from './merchant-receiver.js';

const serverSecret = 'test-server-secret-0123456789abcdef0123456789';
const approve = '+2290196000001';

const api = async (h: Harness, path: string, method = 'POST') => {
  const response = await fetch(`${h.base}/server${path}`, { method, headers: { authorization: `Bearer ${serverSecret}` } });
  return { status: response.status, body: (await response.json()) as any };
};

describe('redeliver and test notifications', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => receiver.close());

  // Retries far in the future: only a redelivery can send a failed notification again in the test.
  const slow = (): Partial<CompanionOptions> => ({
    deliveryRetryDelaysMs: [3_600_000],
    setupChecksAtStart: false,
    serverSecret,
    merchantWebhookUrl: receiver.url,
    merchantWebhookSecret: merchantSecret,
    merchantEvents: ['payment.updated', 'test.ping'],
  });

  const paid = async (h: Harness) => {
    const orderId = newOrderId();
    await h.json('/checkout/pay', { token: await h.checkout(orderId), body: { phoneNumber: approve, useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    return orderId;
  };
  const sentFor = (orderId: string) => receiver.received.filter((item) => item.body.includes(orderId));

  it('sends what the endpoint refused at once, in order, under the same webhook-id, and reports each', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 500;
    const h = await startHarness(slow());
    try {
      const orderId = await paid(h);
      await until('the first refusal', () => sentFor(orderId).length >= 1);
      const refused = sentFor(orderId)[0]!;

      receiver.answer = () => 204;
      const again = await api(h, `/payments/${orderId}/redeliver`);
      assert.equal(again.status, 200);
      assert.deepEqual(
        again.body.deliveries.map((item: any) => [item.reportedState, item.delivered, item.status]),
        [
          ['pending', true, 204],
          ['completed', true, 204],
        ],
      );
      const resent = sentFor(orderId).slice(1);
      assert.deepEqual(resent.map((item) => verified(item).data.payment.state), ['pending', 'completed']);
      assert.equal(resent[0]!.id, refused.id, 'the same webhook-id as the refused attempt');
      assert.equal(resent[0]!.body, refused.body, 'the same body, byte for byte');

      const details = await api(h, `/payments/${orderId}`, 'GET');
      assert.deepEqual(details.body.deliveries.pending, [], 'nothing left queued');
    } finally {
      await h.close();
    }
  });

  it('with everything acknowledged sends the last one again, and every one with ?all=1', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const h = await startHarness(slow());
    try {
      const orderId = await paid(h);
      await until('both notifications', () => sentFor(orderId).length >= 2);
      const first = sentFor(orderId).map((item) => item.id);

      const last = await api(h, `/payments/${orderId}/redeliver`);
      assert.deepEqual(last.body.deliveries.map((item: any) => [item.webhookId, item.delivered]), [[first[1], true]]);
      const all = await api(h, `/payments/${orderId}/redeliver?all=1`);
      assert.deepEqual(all.body.deliveries.map((item: any) => item.webhookId), first);
      assert.deepEqual(sentFor(orderId).map((item) => item.id), [...first, first[1], ...first]);
    } finally {
      await h.close();
    }
  });

  it('sends again a notification the worker gave up on (72 hours later), and counts a new window from there', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 503;
    let skew = 0;
    const h = await startHarness({ ...slow(), now: () => Date.now() + skew });
    try {
      const orderId = await paid(h);
      await until('the first refusal', () => sentFor(orderId).length >= 1);
      skew = 73 * 3_600_000;
      await until('the worker gave up', async () => (await api(h, `/payments/${orderId}`, 'GET')).body.deliveries.pending.length === 0, 5_000);

      const stillFailing = await api(h, `/payments/${orderId}/redeliver`);
      assert.deepEqual(stillFailing.body.deliveries.map((item: any) => [item.delivered, item.status]), [[false, 503], [false, 503]]);
      assert.ok(stillFailing.body.deliveries[0].nextAttemptAt, 'queued again with a new window, not given up at once');

      receiver.answer = () => 200;
      const again = await api(h, `/payments/${orderId}/redeliver`);
      assert.deepEqual(
        again.body.deliveries.map((item: any) => [item.reportedState, item.delivered]),
        [
          ['pending', true],
          ['completed', true],
        ],
      );
    } finally {
      await h.close();
    }
  });

  it('reports a refund\'s notifications by their refund state and id, and sends a refused one again', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const h = await startHarness({ ...slow(), refunds: true, merchantEvents: ['payment.updated', 'refund.updated', 'test.ping'] });
    try {
      const orderId = await paid(h);
      await until('the payment notifications', () => sentFor(orderId).length >= 2);
      // The payment's two were answered 204 (the receiver records after answering): the refund's are refused.
      receiver.answer = () => 500;
      const refund = await fetch(`${h.base}/server/payments/${orderId}/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ refundId: 'refund-1', amount: '1000' }),
      });
      assert.equal(refund.status, 200);
      await until('a refund notification refused', () => sentFor(orderId).length >= 3);
      const refused = sentFor(orderId)[2]!;
      assert.equal(verified(refused).type, 'refund.updated');
      const queued = (await api(h, `/payments/${orderId}`, 'GET')).body.deliveries.pending;
      assert.equal(queued[0].refundId, 'refund-1');
      assert.equal(queued[0].reportedState, verified(refused).data.refund.state);

      receiver.answer = () => 204;
      const again = await api(h, `/payments/${orderId}/redeliver`);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      const first = again.body.deliveries[0];
      assert.deepEqual([first.webhookId, first.refundId, first.reportedState, first.delivered], [refused.id, 'refund-1', verified(refused).data.refund.state, true]);
      const resent = sentFor(orderId).find((item, index) => index > 2 && item.id === refused.id);
      assert.equal(resent?.body, refused.body, 'the refund notification again, byte for byte');
    } finally {
      await h.close();
    }
  });

  it('refuses an unknown order and a companion without a merchant endpoint, saying what to set', async () => {
    const h = await startHarness({ ...slow(), merchantWebhookUrl: undefined, merchantWebhookSecret: undefined } as Partial<CompanionOptions>);
    try {
      const missing = await api(h, `/payments/${newOrderId()}/redeliver`);
      assert.equal(missing.status, 409);
      assert.equal(missing.body.error.code, 'NO_MERCHANT_ENDPOINT');
      assert.match(missing.body.error.message, /MOMO_MERCHANT_WEBHOOK_URL/);
      const ping = await api(h, '/notifications/test');
      assert.equal(ping.status, 409);
    } finally {
      await h.close();
    }
    const configured = await startHarness(slow());
    try {
      const unknown = await api(configured, `/payments/${newOrderId()}/redeliver`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'NOT_FOUND');
    } finally {
      await configured.close();
    }
  });

  it('POST /notifications/test sends a signed test.ping and reports the answer and its time', async () => {
    receiver.received.length = 0;
    const h = await startHarness(slow());
    try {
      receiver.answer = () => 204;
      const ok = await api(h, '/notifications/test');
      assert.equal(ok.status, 200);
      assert.equal(ok.body.ok, true);
      assert.equal(ok.body.status, 204);
      assert.equal(ok.body.url, receiver.url);
      assert.ok(Number.isInteger(ok.body.durationMs) && ok.body.durationMs >= 0);
      const event = verified(receiver.received.at(-1)!);
      assert.equal(event.type, 'test.ping');
      assert.equal(receiver.received.at(-1)!.id, ok.body.webhookId);
      // The wire format every kind shares, byte for byte: type, timestamp, data, in that order.
      assert.equal(receiver.received.at(-1)!.body, JSON.stringify({ type: 'test.ping', timestamp: event.timestamp, data: { webhookId: ok.body.webhookId } }));

      receiver.answer = () => 401;
      const refused = await api(h, '/notifications/test');
      assert.deepEqual([refused.body.ok, refused.body.status], [false, 401]);
      assert.match(refused.body.error, /HTTP 401/);
    } finally {
      await h.close();
    }
  });
});
