/**
 * The origin check reads `allowedOrigins` only, never the Host header (issue 12, item 5), and every
 * answer carries the security headers, the return page its own policy (item 7), without breaking
 * the status stream or CORS.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

let h: Harness;
before(async () => {
  h = await startHarness({ setupChecksAtStart: false });
});
after(async () => h.close());

describe('origin', () => {
  it('refuses a page whose Origin matches the Host header it sent, and names no such origin in CORS', async () => {
    const token = await h.checkout();
    // What a request with `Host: evil.example` and `Origin: http://evil.example` looks like to the companion.
    const headers = { authorization: `Bearer ${token}`, origin: 'http://evil.example', 'content-type': 'application/json' };
    const lookup = await h.companion.fetch(
      new Request('http://evil.example/momo/checkout/lookup', { method: 'POST', headers, body: JSON.stringify({ phoneNumber: '+2290196000001' }) }),
    );
    assert.equal(lookup.status, 403);
    assert.equal(((await lookup.json()) as { error: { code: string } }).error.code, 'ORIGIN_NOT_ALLOWED');
    assert.equal(lookup.headers.get('access-control-allow-origin'), null);
    const preflight = await h.companion.fetch(new Request('http://evil.example/momo/checkout/pay', { method: 'OPTIONS', headers: { origin: 'http://evil.example' } }));
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    const read = await h.companion.fetch(new Request('http://evil.example/momo/checkout', { headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example' } }));
    assert.equal(read.headers.get('access-control-allow-origin'), null, 'a GET is answered, but not readable by that page');
  });

  it('still serves an allowed origin', async () => {
    const token = await h.checkout();
    const response = await h.call('/checkout/lookup', { token, body: { phoneNumber: '+2290196000001' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), shopOrigin);
  });
});

describe('security headers', () => {
  it('nosniff and no-referrer on JSON answers, errors and the webhook route', async () => {
    const token = await h.checkout();
    const answers = [
      await h.call('/checkout', { token }),
      await h.call('/checkout'),
      await h.call('/nothing-here'),
      await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    ];
    for (const response of answers) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${response.url} ${response.status}`);
      await response.arrayBuffer();
    }
    assert.equal(answers[0]!.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(answers[0]!.headers.get('x-frame-options'), 'DENY');
  });

  it('gives the return page a Content-Security-Policy that loads nothing and forbids framing', async () => {
    const response = await fetch(`${h.base}/return/unknown-return-id?outcome=success`, { redirect: 'manual' });
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    await response.arrayBuffer();
  });

  it('keeps the status stream and its CORS headers working', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    const response = await h.call('/checkout/events', { token });
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), shopOrigin);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!/"state":"pending"/.test(text)) {
      // A stream that ended answers every read at once: without this check the loop never yields,
      // and the test's own time limit (a timer) could never fire.
      const { done, value } = await reader.read();
      assert.ok(!done, `the status stream ended before the pending state; it sent: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
  });
});

describe('a refused origin explains itself', () => {
  it('logs the origin, the route and MOMO_ALLOWED_ORIGINS once a minute, and the preflight answer says why', async () => {
    const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const log = { debug() {}, info() {}, error() {}, warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, fields }) };
    const shop = await startHarness({ setupChecksAtStart: false, log });
    try {
      const page = 'http://127.0.0.1:8000';
      const ask = () =>
        shop.companion.fetch(
          new Request(`${shop.base}/checkout/pay`, { method: 'OPTIONS', headers: { origin: page, 'access-control-request-method': 'POST' } }),
        );
      const preflight = await ask();
      assert.equal(preflight.status, 403);
      assert.match(await preflight.text(), /Origin http:\/\/127\.0\.0\.1:8000 is not an allowed origin .* MOMO_ALLOWED_ORIGINS=http:\/\/127\.0\.0\.1:8000/);
      await (await ask()).text();
      const refusals = warnings.filter((warning) => warning.message.includes('origin not allowed'));
      assert.equal(refusals.length, 1, 'a retrying page is logged once a minute, not at every request');
      assert.deepEqual(refusals[0]!.fields, { origin: page, route: '/momo/checkout/pay', method: 'POST', fix: 'add the origin to MOMO_ALLOWED_ORIGINS' });
    } finally {
      await shop.close();
    }
  });
});
