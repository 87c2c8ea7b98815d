/**
 * A payment is never credited to the wrong order (issue 12, item 2), and a merchant's order id may
 * have any form the service takes (issue 26). Retries are sent as the first free `<orderId>-a<N>`:
 * the store's registry gives each id to one order, a new order whose id a retry already took is
 * refused with the reason, a 409 is taken as ours only when we posted that very id before and lost
 * the answer, and a notification is matched through the registry only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CheckoutError, createMemoryStore, signWebhook, type CheckoutStore, type Logger, type PaymentUpdate } from '../../../src/server/index.js';
import { maxAttemptIdTries } from '../../../src/server/payments/attempt-ids.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };
const serverSecret = 'attempt-ids-server-secret-0123456789abcdef';

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
      serverSecret,
      setupChecksAtStart: false,
      fetch: (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes('/v1/pay-in')) payIns += 1;
        return fetch(input, init);
      },
    });
  });
  after(async () => h.close());

  it('accepts order ids ending in "-a" and digits, and sends attempt 1 under the id itself', async () => {
    const stamp = Date.now();
    for (const orderId of ['INV-a2024', `R-${stamp}-a7`, `demo-${stamp}-a03872`, `order-${stamp}-A13`]) {
      const token = await h.checkout(orderId);
      assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } })).body.state, 'pending', orderId);
      assert.equal(h.sandbox.control.transaction(orderId)?.phoneNumber, push.noAnswer, `${orderId} is sent as it is`);
    }
  });

  it('X declined, then "X-a2" paid by someone else: X\'s retry meets 409, is held unknown for support, never paid', async () => {
    const x = newOrderId();
    const token = await h.checkout(x, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    const updatesBefore = statesOf(h.updates, x).length;

    // Another system with the same API key posts "X-a2" (no checkout here): same amount, paid.
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

  it('the merchant creates "X-a2" before X needs a second attempt: the attempts skip to the next free ids', async () => {
    const x = newOrderId();
    const token = await h.checkout(x);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    const mine = await h.checkout(`${x}-a2`);

    // Attempt 2 of X goes out as X-a3, and fails; attempt 3 as X-a4 (never X-a2, never X-a3 again).
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } })).body.state, 'pending');
    assert.equal(h.sandbox.control.transaction(`${x}-a3`)?.phoneNumber, push.decline);
    assert.equal(h.sandbox.control.transaction(`${x}-a2`), undefined, 'the merchant\'s order id is not used by X');
    await h.waitFor(x, (view) => view.state === 'failed');
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } })).body.state, 'pending');
    assert.equal(h.sandbox.control.transaction(`${x}-a4`)?.phoneNumber, push.noAnswer);
    assert.equal((await store.getByOrderId(x))?.payment?.attempt, 3);

    // The merchant's "X-a2" pays under its own id; each notification reaches its own order only.
    assert.equal((await h.json('/checkout/pay', { token: mine, body: { phoneNumber: push.noAnswer, useWallet: false } })).body.state, 'pending');
    const forMine = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId: `${x}-a2`, status: 'completed' }, h.sandbox.webhookSecret);
    assert.deepEqual(await h.companion.handleWebhook(forMine), { status: 200, outcome: 'applied', orderId: `${x}-a2`, state: 'completed' });
    assert.equal((await h.companion.getPayment(`${x}-a2`))?.state, 'completed');
    assert.equal((await h.companion.getPayment(x))?.state, 'pending', 'X is not paid by the other order\'s notification');
    const forX = await signWebhook({ phoneNumber: push.noAnswer, amount: 5000, orderId: `${x}-a4`, status: 'completed' }, h.sandbox.webhookSecret);
    assert.deepEqual(await h.companion.handleWebhook(forX), { status: 200, outcome: 'applied', orderId: x, state: 'completed' });
    assert.equal((await h.companion.getPayment(x))?.state, 'completed');
  });

  it('X\'s second attempt goes out before the merchant creates "X-a2": that order is refused with the reason', async () => {
    const x = newOrderId();
    const token = await h.checkout(x);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } })).body.state, 'pending');
    assert.equal(h.sandbox.control.transaction(`${x}-a2`)?.phoneNumber, push.noAnswer);

    await assert.rejects(h.companion.createCheckout({ orderId: `${x}-a2`, amount: '5000', currencyCode: 'XOF' }), (error: unknown) => {
      assert.ok(error instanceof CheckoutError);
      assert.equal(error.code, 'ORDER_ID_TAKEN');
      assert.match(error.message, new RegExp(`a retry of order "${x}" was sent under it.*Use another order id`));
      return true;
    });
    assert.equal(await store.getByOrderId(`${x}-a2`), undefined);
    // The server API answers the same refusal as a 409.
    const answer = await h.call('/server/checkouts', {
      method: 'POST',
      origin: null,
      headers: { authorization: `Bearer ${serverSecret}` },
      body: { orderId: `${x}-a2`, amount: '5000', currencyCode: 'XOF' },
    });
    assert.equal(answer.status, 409);
    assert.match(((await answer.json()) as { error: { message: string } }).error.message, /already in use at the payment service/);
  });

  it('when every id an attempt could take is another order\'s, nothing is posted and the order keeps its attempt', async () => {
    const x = newOrderId();
    const token = await h.checkout(x);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    await h.waitFor(x, (view) => view.state === 'failed');
    for (let n = 2; n < 2 + maxAttemptIdTries; n++) await h.checkout(`${x}-a${n}`);

    const before = payIns;
    const retry = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(retry.status, 500);
    assert.equal(retry.body.error.code, 'INTERNAL');
    assert.match(retry.body.error.message, /Nothing was sent to the payment service/);
    assert.equal(payIns, before, 'nothing posted');
    const view = (await h.companion.getPayment(x))!;
    assert.equal(view.state, 'failed');
    assert.equal(view.canRetry, true, 'X keeps its attempt');
    assert.ok(log.lines.some((line) => line.level === 'error' && /already belongs to another order/.test(line.message)));
  });
});
