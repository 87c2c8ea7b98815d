/**
 * Which authorisation URLs from a (signed) notification reach the payer's browser, which navigates
 * to them (issue 12, item 9): https to a public host, no credentials, no look-alike names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isAllowedAuthorizationUrl } from '../../../src/server/model/urls.js';
import { signWebhook } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const refused = [
  'https://bank.example@evil.example/pay', // userinfo: the payer reads "bank.example"
  'https://user:pw@pay.example/pay',
  'https://pаypal.com/pay', // a Cyrillic "а": punycode xn--pypal-4ve.com
  'https://xn--pypal-4ve.com/pay',
  'https://[::ffff:10.0.0.1]/pay', // private IPv4 written as IPv6
  'https://[::ffff:a00:1]/pay',
  'https://169.254.169.254/latest/meta-data', // link-local (cloud metadata)
  'https://2852039166/', // the same, as one number
  'https://10.1.2.3/pay',
  'https://192.168.0.1/pay',
  'https://[fd00::1]/pay',
  'https://127.0.0.1/pay',
  'https://0x7f.1/pay',
  'https://localhost/pay',
  'https://[::1]/pay',
  'http://pay.example/pay',
  'javascript:alert(1)',
  'not a url',
];
const allowed = ['https://pay.example/authorize/1?t=x', 'https://pay.example:8443/a', 'https://8.8.8.8/pay', 'https://[2606:4700:4700::1111]/pay'];

describe('authorisation URL policy', () => {
  it('refuses credentials, look-alike hosts and non-public IP literals', () => {
    for (const url of refused) assert.equal(isAllowedAuthorizationUrl(url, { allowInsecureLocal: false }), false, url);
    for (const url of allowed) assert.equal(isAllowedAuthorizationUrl(url, { allowInsecureLocal: false }), true, url);
  });

  it('allows loopback only for the local sandbox, and internationalised hosts only when asked', () => {
    for (const url of ['http://127.0.0.1:4000/authorize/1', 'http://localhost:4000/a', 'http://[::1]:4000/a']) {
      assert.equal(isAllowedAuthorizationUrl(url, { allowInsecureLocal: false }), false, url);
      assert.equal(isAllowedAuthorizationUrl(url, { allowInsecureLocal: true }), true, url);
    }
    assert.equal(isAllowedAuthorizationUrl('http://user@127.0.0.1:4000/a', { allowInsecureLocal: true }), false, 'never credentials');
    assert.equal(isAllowedAuthorizationUrl('https://10.0.0.1/a', { allowInsecureLocal: true }), false, 'private is not loopback');
    assert.equal(isAllowedAuthorizationUrl('https://xn--bcher-kva.example/a', { allowInsecureLocal: false, allowIdnHosts: true }), true);
  });
});

describe('authorisation URLs from notifications', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ setupChecksAtStart: false });
  });
  after(async () => h.close());

  const notify = async (orderId: string, authorizationUrl: string) =>
    h.companion.handleWebhook(
      await signWebhook({ phoneNumber: '+2290196000003', amount: 5000, orderId, status: 'pending', nextAction: { authorizationUrl } }, h.sandbox.webhookSecret),
    );

  it('never passes a refused URL to the page, and passes a good one', async () => {
    for (const url of ['https://bank.example@evil.example/pay', 'https://[::ffff:10.0.0.1]/pay', 'https://169.254.169.254/', 'https://pаypal.com/pay']) {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
      await notify(orderId, url);
      const view = (await h.json('/checkout/status', { token })).body.payment;
      assert.equal(view.authorizationUrl, null, url);
      assert.notEqual(view.state, 'redirect-ready', url);
    }
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    await notify(orderId, 'https://pay.example/authorize/1');
    const view = (await h.json('/checkout/status', { token })).body.payment;
    assert.equal(view.state, 'redirect-ready');
    assert.equal(view.authorizationUrl, 'https://pay.example/authorize/1');
  });
});

describe('a refused approval page (issue 53, item 3)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ setupChecksAtStart: false });
  });
  after(async () => h.close());

  it('is said to the payer at once as "pay another way" (not failed), names its cause in the stuck list, and lets another attempt start', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    // A push number that never answers: only the notification below moves this attempt.
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    const answer = await h.companion.handleWebhook(
      await signWebhook({ phoneNumber: '+2290196000003', amount: 5000, orderId, status: 'pending', nextAction: { authorizationUrl: 'http://pay.example/authorize/1' } }, h.sandbox.webhookSecret),
    );
    assert.equal(answer.status, 200);
    const view = (await h.json('/checkout/status', { token })).body.payment;
    assert.equal(view.approvalUnavailable, true, JSON.stringify(view));
    assert.equal(view.canRetry, true);
    assert.notEqual(view.state, 'failed', 'never told it failed: the attempt is left to expire at the service');
    assert.equal(view.authorizationUrl, null);

    const [stuck] = (await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 })).filter((item) => item.orderId === orderId);
    assert.match(stuck!.action, /approval page \(authorizationUrl\) was refused because it is not https/);
    assert.match(stuck!.action, /SANDBOX_PUBLIC_URL/);
    assert.doesNotMatch(stuck!.action, /NODE_EXTRA_CA_CERTS|not delivered/, 'the notification arrived: the list does not say it was lost');

    // The way forward: another number (a push that approves) starts a new attempt under a new order id.
    const again = (await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } })).body;
    assert.equal(again.approvalUnavailable, undefined, JSON.stringify(again));
    assert.ok(['pending', 'unknown', 'completed'].includes(again.state), JSON.stringify(again));
    const paid = await h.waitFor(orderId, (payment) => payment.state === 'completed');
    assert.equal(paid.state, 'completed');
    const [record] = (await h.companion.listPayments({})).filter((item) => item.orderId === orderId);
    assert.notEqual(record!.serviceOrderId, orderId, 'the new attempt has an order id of its own; the refused one is never re-posted');
  });

  it('and then the replaced attempt completes after all: never ignored, the order is listed for support, the payer may have paid twice', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    const notify = async (status: string, extra: Record<string, unknown> = {}) =>
      h.companion.handleWebhook(await signWebhook({ phoneNumber: '+2290196000003', amount: 5000, orderId, status, ...extra }, h.sandbox.webhookSecret));
    await notify('pending', { nextAction: { authorizationUrl: 'http://pay.example/authorize/1' } });
    // The payer takes the way forward: another attempt, on a number that never answers.
    await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
    const [current] = (await h.companion.listPayments({})).filter((item) => item.orderId === orderId);
    assert.notEqual(current!.serviceOrderId, orderId, 'a second attempt is under way');

    // The first attempt, whose approval page the payer never saw, is then notified completed.
    assert.equal((await notify('completed')).status, 200);
    const [stuck] = (await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 })).filter((item) => item.orderId === orderId);
    assert.ok(stuck, 'listed for support, not dropped');
    assert.match(stuck!.action, new RegExp(`earlier attempt of this order \\(order ${orderId}\\) as completed`));
    assert.match(stuck!.action, /may have paid twice/);
    assert.equal((await notify('completed')).status, 200, 'a duplicate changes nothing');
  });
});
