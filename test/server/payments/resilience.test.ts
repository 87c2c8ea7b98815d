/**
 * Lost answers and hostile notifications: whatever the network or an attacker does, one pay-in per
 * attempt, and the payment state only moves forward on verified notifications.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signWebhook } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const push = { approve: '+2290196000001', noAnswer: '+2290196000003' };

let h: Harness;
before(async () => {
  h = await startHarness({ serviceTimeoutMs: 300 });
});
after(async () => h.close());

const payInsOf = (orderId: string) => h.sandbox.control.transactions().filter((entry) => entry.orderId === orderId).length;

describe('lost answers on the pay-in', () => {
  it('an answer lost after creation: the re-post meets 409 and the payment is pending, once', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 1 });
    const { body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    assert.equal(body.state, 'pending');
    assert.equal(payInsOf(orderId), 1);
  });

  for (const kind of ['status-500', 'reset', 'hang'] as const) {
    it(`a ${kind} before creation: one re-post of the same order, one pay-in`, async () => {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      h.sandbox.control.injectFault({ kind, path: '/v1/pay-in', times: 1 });
      const { body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
      assert.equal(body.state, 'pending');
      assert.equal(payInsOf(orderId), 1);
    });
  }

  it('still unknown after the re-post: says "unknown" instead of failing, and a webhook decides later', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-in', times: 2 });
    const { status, body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(status, 200);
    assert.equal(body.state, 'unknown');
    assert.equal(payInsOf(orderId), 0);
    // The page asks again (or reloads): the same order id is re-posted, never a new one.
    const again = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(again.body.state, 'pending');
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal(payInsOf(orderId), 1);
  });
});

describe('hostile and disordered notifications', () => {
  it('a duplicate, a stale, a forged and an out-of-order notification change nothing and call nobody', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    const updatesBefore = h.updates.filter((update) => update.orderId === orderId).length;
    const versionBefore = (await h.companion.getPayment(orderId))!.version;
    for (const how of ['duplicate', 'stale', 'forged', 'out-of-order'] as const) {
      const delivery = await h.sandbox.control.reemit(orderId, how);
      if (how === 'stale' || how === 'forged') assert.ok(delivery.httpStatus === 400 || delivery.httpStatus === 401, `${how}: ${delivery.httpStatus}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = (await h.companion.getPayment(orderId))!;
    assert.equal(after.state, 'completed');
    assert.equal(after.version, versionBefore);
    assert.equal(h.updates.filter((update) => update.orderId === orderId).length, updatesBefore);
  });

  it('the same notification arriving twice at the same moment is applied once', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    const body = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    const results = await Promise.all([h.companion.handleWebhook(body), h.companion.handleWebhook(body)]);
    assert.deepEqual(results.map((result) => result.outcome).sort(), ['applied', 'duplicate']);
    assert.deepEqual(h.updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state), ['pending', 'completed']);
  });

  it('two different notifications racing to the same final state: onPaymentUpdate once', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    const one = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    const two = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    await Promise.all([h.companion.handleWebhook(one), h.companion.handleWebhook(two)]);
    assert.equal(h.updates.filter((update) => update.orderId === orderId && update.payment.state === 'completed').length, 1);
  });

  it('a notification whose amount differs from the order is flagged and never reported as paid', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    const body = await signWebhook({ phoneNumber: push.noAnswer, amount: 50, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    await h.companion.handleWebhook(body);
    const view = (await h.companion.getPayment(orderId))!;
    assert.notEqual(view.state, 'completed');
    const flagged = h.updates.filter((update) => update.orderId === orderId).at(-1)!;
    assert.equal(flagged.amountMismatch, true);
  });

  it('an http authorisation URL from a notification is refused and never reaches the page', async () => {
    const strict = await startHarness({ allowInsecureLocalUrls: true });
    try {
      const orderId = newOrderId();
      const token = await strict.checkout(orderId);
      await strict.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
      const body = await signWebhook(
        { phoneNumber: push.noAnswer, amount: 5000, orderId, status: 'pending', nextAction: { authorizationUrl: 'http://evil.example/pay' } },
        strict.sandbox.webhookSecret,
      );
      await strict.companion.handleWebhook(body);
      const view = (await strict.companion.getPayment(orderId))!;
      assert.equal(view.authorizationUrl, null);
      assert.notEqual(view.state, 'redirect-ready');
    } finally {
      await strict.close();
    }
  });

  it('answers an invalid notification 401 or 400 over HTTP', async () => {
    const forged = await signWebhook({ phoneNumber: push.approve, amount: 5000, orderId: 'x', status: 'completed' }, 'whsec_wrong');
    const response = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged });
    assert.equal(response.status, 401);
    const broken = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":' });
    assert.equal(broken.status, 400);
  });
});
