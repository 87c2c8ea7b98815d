/**
 * Status streams are bounded (issue 12, item 1): a few per checkout, a total per process, a
 * lifetime, and none kept open for a payment that is already final. Past the caps the page routes
 * and the webhook route still answer, and a notification is still applied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFetchClient } from '../../../src/client/index.js';
import type { PaymentView } from '../../../src/contract/companion.js';
import { signWebhook } from '../../../src/server/index.js';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

const noAnswer = '+2290196000003';

/** Resolves true when the stream ends within `ms`, false when it is still open then. */
async function endsWithin(response: Response, ms: number): Promise<boolean> {
  const reader = response.body!.getReader();
  const timer = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms));
  for (;;) {
    const read = await Promise.race([reader.read(), timer]);
    if (read === 'open') {
      await reader.cancel();
      return false;
    }
    if (read.done) return true;
  }
}

describe('status stream caps', () => {
  let h: Harness;
  const opened: Response[] = [];
  before(async () => {
    h = await startHarness({ heartbeatMs: 30, setupChecksAtStart: false, limits: { streamsPerCheckout: 2, streams: 6 } });
  });
  after(async () => {
    await Promise.all(opened.map((response) => response.body?.cancel().catch(() => undefined)));
    await h.close();
  });
  const open = async (token: string) => {
    const response = await h.call('/checkout/events', { token });
    if (response.status === 200) opened.push(response);
    return response;
  };

  it('refuses a checkout its third stream with 429 and a code, CORS headers kept', async () => {
    const token = await h.checkout();
    assert.equal((await open(token)).status, 200);
    assert.equal((await open(token)).status, 200);
    const third = await open(token);
    assert.equal(third.status, 429);
    assert.equal(third.headers.get('access-control-allow-origin'), shopOrigin);
    assert.ok(Number(third.headers.get('retry-after')) > 0);
    assert.equal(((await third.json()) as { error: { code: string } }).error.code, 'RATE_LIMITED');
  });

  it('refuses streams past the process cap, and still answers the page and applies a notification', async () => {
    const tokens = await Promise.all([1, 2, 3].map(() => h.checkout()));
    const statuses: number[] = [];
    for (const token of tokens) for (let i = 0; i < 3; i++) statuses.push((await open(token)).status);
    assert.equal(h.companion.openStreams(), 6);
    assert.ok(statuses.filter((status) => status === 429).length >= 3, `some refused: ${statuses.join(',')}`);

    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    assert.equal((await h.json('/checkout', { token })).status, 200);
    assert.equal((await open(token)).status, 429, 'the process is full');
    const pay = await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
    assert.equal(pay.body.state, 'pending');
    const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    const webhook = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(webhook.status, 200);
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal((await h.json('/checkout/status', { token })).body.payment.state, 'completed');
  });
});

describe('status stream endings', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ heartbeatMs: 20, setupChecksAtStart: false, limits: { streamLifetimeMs: 150 } });
  });
  after(async () => h.close());

  it('ends at once for a final payment, whatever Last-Event-ID says', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
    await h.companion.handleWebhook(await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'failed' }, h.sandbox.webhookSecret));
    const { version } = (await h.companion.getPayment(orderId))!;
    for (const lastEventId of [version, version + 1000]) {
      const response = await h.call('/checkout/events', { token, headers: { 'last-event-id': String(lastEventId) } });
      assert.equal(response.status, 200);
      assert.equal(await endsWithin(response, 100), true, `Last-Event-ID ${lastEventId}: the stream must end`);
    }
  });

  it('ends a stream after its lifetime, and the page client reconnects and still gets the outcome', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
    const lone = await h.call('/checkout/events', { token });
    assert.equal(await endsWithin(lone, 2000), true, 'ended by its lifetime');

    // The element's own client: it reconnects after a stream ends, with Last-Event-ID.
    const seen: PaymentView[] = [];
    const stop = new AbortController();
    let connections = 0;
    const client = createFetchClient({
      endpoint: h.base,
      token,
      onPageVisible: null,
      reconnectDelaysMs: [10],
      fetch: (input, init) => {
        if (String(input).endsWith('/checkout/events')) connections += 1;
        return fetch(input, init);
      },
    });
    client.subscribe((view) => seen.push(view), stop.signal);
    try {
      const until = Date.now() + 3000;
      while (connections < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(connections >= 3, `reconnected after each lifetime (${connections} connections)`);
      await h.companion.handleWebhook(await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret));
      while (!seen.some((view) => view.state === 'completed') && Date.now() < until + 2000) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(seen.map((view) => view.state), ['pending', 'completed']);
    } finally {
      stop.abort();
    }
  });
});
