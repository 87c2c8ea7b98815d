/**
 * Return URLs are parsed as URLs, not matched by a pattern (issue 12, item 6), and a payer is never
 * told "nothing was charged" unless that is known.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompanionConfigError, createCompanion, createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

const malformed = ['https://', 'http://[::1', 'javascript:alert(1)', 'ftp://shop.example/x', '/checkout', 'https//shop.example'];

let h: Harness;
let store: CheckoutStore;
let failReads = false;
before(async () => {
  const memory = createMemoryStore();
  // A store that can be made to fail, as a real backend does when its connection drops.
  store = {
    ...memory,
    getByTokenHash: (hash) => (failReads ? Promise.reject(new Error('store connection lost')) : memory.getByTokenHash(hash)),
  };
  h = await startHarness({ setupChecksAtStart: false, store });
});
after(async () => h.close());

describe('returnUrl', () => {
  it('createCheckout refuses what is not an absolute http(s) URL with a host', async () => {
    for (const returnUrl of malformed) {
      await assert.rejects(h.companion.createCheckout({ orderId: newOrderId(), amount: '5000', currencyCode: 'XOF', returnUrl }), /returnUrl/, returnUrl);
    }
    await h.companion.createCheckout({ orderId: newOrderId(), amount: '5000', currencyCode: 'XOF', returnUrl: 'https://shop.example/back?x=1' });
  });

  it('createCompanion refuses a malformed default returnUrl', () => {
    for (const returnUrl of malformed) {
      assert.throws(
        () =>
          createCompanion({
            baseUrl: h.sandbox.url,
            apiKey: h.sandbox.apiKey,
            webhookSecrets: [h.sandbox.webhookSecret],
            publicUrl: 'http://127.0.0.1:1/momo',
            allowedOrigins: [shopOrigin],
            allowInsecureLocalUrls: true,
            log: silentLogger,
            returnUrl,
          }),
        (error: unknown) => error instanceof CompanionConfigError && /returnUrl/.test(error.message),
        returnUrl,
      );
    }
  });

  it('the return route tells a payer the payment is being confirmed when a stored returnUrl is unusable', async () => {
    const orderId = newOrderId();
    await h.checkout(orderId);
    // A record written by an older version, whose pattern check let this through.
    const record = (await store.getByOrderId(orderId))!;
    assert.equal(await store.compareAndSet(orderId, record.revision, { ...record, revision: record.revision + 1, returnUrl: 'http://[::1' }), true);
    const response = await fetch(`${h.base}/return/${record.returnId}?outcome=success`, { redirect: 'manual' });
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /being confirmed/);
    assert.doesNotMatch(html, /nothing was charged/i);
  });
});

describe('unexpected failures', () => {
  // A store that fails is an outage the payer may retry (issue 40: 503 with Retry-After, as the
  // server API answers), and still never a claim that nothing was charged.
  it('never claim nothing was charged', async () => {
    const token = await h.checkout();
    failReads = true;
    try {
      const { status, body } = await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } });
      assert.equal(status, 503);
      assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
      assert.doesNotMatch(body.error.message, /nothing was charged/i);
      assert.doesNotMatch(JSON.stringify(body), /store connection lost/, 'no internal detail');
    } finally {
      failReads = false;
    }
  });
});
