/** The page's routes hold the token, the origin and the stream promises. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signWebhook } from '../../../src/server/index.js';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

let h: Harness;
let clock = Date.now();
before(async () => {
  h = await startHarness({ now: () => clock });
});
after(async () => h.close());

describe('token and origin', () => {
  it('refuses a missing, an unknown and an expired token', async () => {
    assert.equal((await h.json('/checkout')).body.error.code, 'TOKEN_MISSING');
    assert.equal((await h.json('/checkout', { token: 'not-a-token' })).body.error.code, 'TOKEN_INVALID');
    const token = await h.checkout();
    clock += 31 * 60_000;
    try {
      const expired = await h.json('/checkout/lookup', { token, body: { phoneNumber: '+2290196000001' } });
      assert.equal(expired.status, 401);
      assert.equal(expired.body.error.code, 'TOKEN_EXPIRED');
    } finally {
      clock -= 31 * 60_000;
    }
  });

  it('scopes a token to its checkout', async () => {
    const mine = newOrderId();
    const token = await h.checkout(mine);
    const other = newOrderId();
    await h.checkout(other);
    const { body } = await h.json('/checkout', { token });
    assert.equal(body.orderId, mine);
  });

  it('refuses a state-changing call from an origin not allowed, or with none', async () => {
    const token = await h.checkout();
    const evil = await h.json('/checkout/lookup', { token, origin: 'https://evil.example', body: { phoneNumber: '+2290196000001' } });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error.code, 'ORIGIN_NOT_ALLOWED');
    const none = await h.json('/checkout/pay', { token, origin: null, body: { phoneNumber: '+2290196000001', useWallet: false } });
    assert.equal(none.status, 403);
  });

  it('answers CORS preflights for allowed origins only', async () => {
    const ok = await h.call('/checkout/pay', { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), shopOrigin);
    assert.match(ok.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const refused = await h.call('/checkout/pay', { method: 'OPTIONS', origin: 'https://evil.example' });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
  });

  it('never forwards an upstream message or a stack trace', async () => {
    const token = await h.checkout();
    const { body } = await h.json('/checkout/pay', { token, body: { phoneNumber: 12 } });
    assert.equal(body.error.code, 'BAD_REQUEST');
    assert.doesNotMatch(JSON.stringify(body), /at |node_modules|sk_/);
  });
});

describe('status', () => {
  it('streams each transition as Server-Sent Events, and resumes after Last-Event-ID', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    const pending = (await h.companion.getPayment(orderId))!;

    const response = await h.call('/checkout/events', { token });
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(/"state":"pending"/);
    assert.match(text, new RegExp(`id: ${pending.version}\\nevent: payment\\n`));

    const sentAt = performance.now();
    const body = await signWebhook({ phoneNumber: '+2290196000003', amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await readUntil(/"state":"completed"/);
    const latencyMs = performance.now() - sentAt;
    assert.match(text, /"state":"completed"/);
    console.log(`webhook to stream: ${latencyMs.toFixed(1)} ms`);
    // The stream ends after a final state.
    const end = await reader.read();
    assert.equal(end.done, true);

    const resumed = await h.call('/checkout/events', { token, headers: { 'last-event-id': String(pending.version) } });
    const resumedText = await resumed.text();
    assert.doesNotMatch(resumedText, /"state":"pending"/);
    assert.match(resumedText, /"state":"completed"/);
  });

  it('serves the same state with a plain GET', async () => {
    const token = await h.checkout();
    assert.deepEqual((await h.json('/checkout/status', { token })).body, { payment: null });
  });
});
