/**
 * A payment is never credited to the wrong order (issue 12, item 2). Retries are sent as
 * `<orderId>-a<N>`; a merchant order id of that form is refused, a 409 is taken as ours only when
 * we posted that very id before and lost the answer, and the store never gives one service order
 * id to two orders.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, signWebhook, type CheckoutStore, type Logger, type PaymentUpdate } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: unknown }> } {
  const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
  const at = (level: string) => (message: string, fields?: unknown) => void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const statesOf = (updates: PaymentUpdate[], orderId: string) => updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state);

describe('attempt ids and 409s', () => {
  let h: Harness;
  let log: ReturnType<typeof recordingLogger>;
  let payIns = 0;
  let store: CheckoutStore;
  before(async () => {
    log = recordingLogger();
    store = createMemoryStore();
    h = await startHarness({
      log,
      store,
      setupChecksAtStart: false,
      fetch: (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes('/v1/pay-in')) payIns += 1;
        return fetch(input, init);
      },
    });
  });
  after(async () => h.close());

  it('refuses a merchant order id of the reserved form <orderId>-a<N>, with the reason', async () => {
    for (const orderId of ['order-7-a2', 'order-7-A13']) {
      await assert.rejects(h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' }), /reserved for retry attempts/);
    }
    // Close to the form but not it: accepted.
    for (const orderId of ['order-7-a', 'order-7-a2b', 'order-7-b2']) await h.companion.createCheckout({ orderId: `${orderId}-${Date.now()}`, amount: '5000', currencyCode: 'XOF' });
  });

  it('X declined, then "X-a2" paid by someone else: X\'s retry meets 409, is held unknown for support, never paid', async () => {
    const x = newOrderId();
    const token = await h.checkout(x, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    const updatesBefore = statesOf(h.updates, x).length;

    // The other order "X-a2" can no longer be a checkout...
    await assert.rejects(h.companion.createCheckout({ orderId: `${x}-a2`, amount: '5000', currencyCode: 'XOF' }), /reserved/);
    // ...but another system with the same API key may still post it: same amount, paid.
    await h.companion.service.payIn({ orderId: `${x}-a2`, amount: '5000', phoneNumber: push.noAnswer, currencyCode: 'XOF', webhookUrl: `${h.base}/webhook` });
    await h.sandbox.control.settle(`${x}-a2`, 'completed');

    const retry = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.state, 'unknown', 'a 409 we did not cause is not "exists"');
    assert.ok(
      log.lines.some((line) => line.level === 'error' && /needs support/.test(line.message) && JSON.stringify(line.fields).includes(`${x}-a2`)),
      'logged for support',
    );
    // The other system's transaction is untouched, and X is not paid by its notification.
    assert.equal(h.sandbox.control.transaction(`${x}-a2`)?.phoneNumber, push.noAnswer);
    const theirs = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId: `${x}-a2`, status: 'completed' }, h.sandbox.webhookSecret);
    assert.equal((await h.companion.handleWebhook(theirs)).outcome, 'ignored');
    const view = (await h.companion.getPayment(x))!;
    assert.equal(view.state, 'unknown');
    const since = statesOf(h.updates, x).slice(updatesBefore);
    assert.ok(!since.includes('completed') && !since.includes('pending'), `onPaymentUpdate never says paid or pending: ${since.join(',')}`);

    // Asking again posts nothing more: only support can settle it.
    const before = payIns;
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } })).body.state, 'unknown');
    assert.equal(payIns, before);
  });

  it('a 409 on a later call is ours when our earlier post of the same id lost its answer', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    // Created, answer lost; the re-post's answer lost too: unknown.
    h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 1 });
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-in', times: 1 });
    const first = await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    assert.equal(first.body.state, 'unknown');
    const again = await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    assert.equal(again.body.state, 'pending', 'our own payment, found by its 409');
    assert.equal(h.sandbox.control.transactions().filter((entry) => entry.orderId === orderId).length, 1);
  });

  it('the store refuses to give an attempt id another order holds: nothing is posted, nothing lost', async () => {
    const x = newOrderId();
    const token = await h.checkout(x);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    // A record of order "X-a2" written before the reserved form was refused (an older version).
    const template = (await store.getByOrderId(x))!;
    const squatter = {
      ...template,
      orderId: `${x}-a2`,
      tokenHash: `squatter-${x}`,
      returnId: `squatter-${x}`,
      payment: { ...template.payment!, serviceOrderId: `${x}-a2`, state: 'pending' as const },
    };
    assert.equal((await store.createIfAbsent(squatter)).created, true);

    const before = payIns;
    const retry = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(retry.status, 500);
    assert.equal(retry.body.error.code, 'INTERNAL');
    assert.doesNotMatch(retry.body.error.message, /nothing was charged/i);
    assert.equal(payIns, before, 'nothing posted');
    assert.equal(h.sandbox.control.transaction(`${x}-a2`), undefined);
    const view = (await h.companion.getPayment(x))!;
    assert.equal(view.state, 'failed');
    assert.equal(view.canRetry, true, 'X keeps its attempt');
    assert.equal((await store.getByOrderId(`${x}-a2`))?.payment?.state, 'pending', 'the other order is untouched');
    assert.ok(log.lines.some((line) => line.level === 'error' && /belongs to another order/.test(line.message)));
  });
});
