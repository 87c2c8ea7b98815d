/**
 * The three workflows end to end over real HTTP: the page's routes on the companion, the
 * companion's calls to the sandbox, the sandbox's signed webhooks back to the companion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };
const otp = { approve: '+2290194000001' };
const celtiis = '+2290140000001';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

describe('checkout sessions', () => {
  it('returns the same token for the same order, and refuses the same order id with another amount', async () => {
    const orderId = newOrderId();
    const first = await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    const again = await h.companion.createCheckout({ orderId, amount: '5000.00', currencyCode: 'XOF' });
    assert.equal(again.token, first.token);
    await assert.rejects(h.companion.createCheckout({ orderId, amount: '6000', currencyCode: 'XOF' }), /already has a checkout/);
    assert.ok(first.token.length >= 40, 'an unguessable token');
  });

  it('refuses a float amount and a malformed currency with a reason', async () => {
    await assert.rejects(h.companion.createCheckout({ orderId: newOrderId(), amount: 5000 as unknown as string, currencyCode: 'XOF' }), /decimal string/);
    await assert.rejects(h.companion.createCheckout({ orderId: newOrderId(), amount: '5000', currencyCode: 'xof' }), /currencyCode/);
  });

  it('shows the page its order and the countries served for the currency', async () => {
    const token = await h.checkout(undefined, '5000', 'XOF');
    const { status, body } = await h.json('/checkout', { token });
    assert.equal(status, 200);
    assert.equal(body.amount, '5000');
    assert.equal(body.currencyCode, 'XOF');
    const codes = body.countries.map((country: { code: string }) => country.code);
    assert.ok(codes.includes('BJ') && codes.includes('CI'));
    assert.ok(!codes.includes('CM'), 'Cameroon pays in XAF, not XOF');
    assert.equal(body.payment, null);
  });
});

describe('discovery for a number', () => {
  it('finds the operator, its instructions, and the wallet offer', async () => {
    const token = await h.checkout();
    const { status, body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: '01 94 00 00 01', country: 'BJ' } });
    assert.equal(status, 200);
    assert.equal(body.phoneNumber, otp.approve);
    assert.equal(body.operator.code, 'moov');
    assert.match(body.operator.instructions, /\*145\*4#/);
    assert.equal(body.operator.decimalPlaces, 0);
    assert.equal(body.wallet.code, 'wallet');
  });

  it('gives null instructions when the operator has none, so the page shows its fallback', async () => {
    const token = await h.checkout();
    const { body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: celtiis } });
    assert.equal(body.operator.code, 'celtiis');
    assert.equal(body.operator.instructions, null);
  });

  it('refuses a number it cannot read, with a reason for the payer', async () => {
    const token = await h.checkout();
    const { status, body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: '+229 01 94' } });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'INVALID_PHONE');
    assert.match(body.error.message, /short/);
  });

  it('names the bounds when the order is out of the operator range', async () => {
    // Over every Benin ceiling (MTN and the wallet: 2,000,000). An order under every known minimum
    // is refused earlier, by createCheckout (payable-orders.test.ts).
    const token = await h.checkout(undefined, '2500000', 'XOF');
    const { status, body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: push.approve } });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'AMOUNT_OUT_OF_RANGE');
    assert.ok(body.error.details.min);
    assert.equal(body.error.details.max, '2000000');
  });

  it('previews once per number and choice, whatever the number of asks', async () => {
    const token = await h.checkout();
    for (let i = 0; i < 3; i++) {
      const { body } = await h.json('/checkout/preview', { token, body: { phoneNumber: otp.approve, useWallet: false } });
      assert.equal(body.workflow, 'pre_authorized');
    }
    const { body: wallet } = await h.json('/checkout/preview', { token, body: { phoneNumber: otp.approve, useWallet: true } });
    assert.equal(wallet.workflow, 'redirect_url');
    // One per choice since the companion started: the lookup above already previewed the default one.
    assert.equal(h.sandbox.control.previewCount(otp.approve), 2);
  });
});

describe('pay: push (provider_auth)', () => {
  it('is accepted as pending, then completed by the webhook; onPaymentUpdate once per transition', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    const { status, body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(status, 200);
    assert.equal(body.state, 'pending');
    assert.equal(body.phoneNumberMasked.includes('96000001'), false);
    const done = await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal(done.workflow, 'provider_auth');
    const states = h.updates.filter((update) => update.orderId === orderId).map((update) => update.payment.state);
    assert.deepEqual(states, ['pending', 'completed']);
  });

  it('ignores an amount sent by the browser: the service receives the checkout amount', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false, amount: '1', currencyCode: 'XAF', orderId: 'hijack' } });
    const transaction = h.sandbox.control.transaction(orderId);
    assert.equal(transaction?.amount, '5000');
    assert.equal(transaction?.currencyCode, 'XOF');
    assert.equal(h.sandbox.control.transaction('hijack'), undefined);
  });

  it('a declined number fails, and a retry with another number is a new attempt', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: push.decline, useWallet: false } });
    const failed = await h.waitFor(orderId, (view) => view.state === 'failed');
    assert.equal(failed.canRetry, true);
    const { body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
    assert.equal(body.state, 'pending');
    assert.ok(h.sandbox.control.transaction(`${orderId}-a2`), 'the second attempt has its own order id');
    await h.waitFor(orderId, (view) => view.state === 'completed');
  });

  it('a double click, Enter plus click and a second tab make one pay-in', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    const results = await Promise.all([1, 2, 3].map(() => h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } })));
    for (const result of results) assert.ok(result.status === 200 || result.body.error?.code === 'PAYMENT_IN_PROGRESS', JSON.stringify(result.body));
    assert.equal(h.sandbox.control.transactions().filter((entry) => entry.orderId.startsWith(orderId)).length, 1);
  });
});

describe('pay: OTP (pre_authorized)', () => {
  it('asks for the code with the instructions, refuses a wrong one, then accepts the right one on the same order', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    const first = await h.json('/checkout/pay', { token, body: { phoneNumber: otp.approve, useWallet: false } });
    assert.equal(first.body.state, 'needs-otp');
    assert.match(first.body.instructions, /\*145\*4#/);
    assert.equal(h.sandbox.control.transaction(orderId), undefined, '422: nothing created');
    const wrong = await h.json('/checkout/pay', { token, body: { phoneNumber: otp.approve, useWallet: false, otp: '000000' } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error.code, 'OTP_REFUSED');
    const right = await h.json('/checkout/pay', { token, body: { phoneNumber: otp.approve, useWallet: false, otp: '123456' } });
    assert.equal(right.body.state, 'pending');
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal(h.sandbox.control.transactions().filter((entry) => entry.orderId === orderId).length, 1);
  });
});

describe('pay: redirect (the overlay wallet)', () => {
  for (const decision of ['approve', 'decline'] as const) {
    it(`waits for the authorisation URL, then the payer's ${decision} returns to the shop and the webhook decides`, async () => {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      const { body } = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: true } });
      assert.ok(['awaiting-redirect', 'redirect-ready'].includes(body.state), body.state);
      assert.equal(h.sandbox.control.transaction(orderId)?.operatorCode, 'wallet');
      const ready = await h.waitFor(orderId, (view) => view.state === 'redirect-ready');
      assert.ok(ready.authorizationUrl?.startsWith(h.sandbox.url));

      // The payer's browser on the sandbox's authorisation page.
      const page = await fetch(ready.authorizationUrl!);
      const html = await page.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      assert.ok(action, 'the authorisation page has a form');
      const form = await fetch(new URL(action, ready.authorizationUrl!), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `decision=${decision}`,
        redirect: 'manual',
      });
      assert.equal(form.status, 303);
      const returnUrl = form.headers.get('location')!;
      assert.ok(returnUrl.startsWith(`${h.base}/return/`), returnUrl);
      const back = await fetch(returnUrl, { redirect: 'manual' });
      assert.equal(back.status, 303);
      // The order comes back with the payer (issue 13 §5): one fixed return page finds it.
      assert.equal(back.headers.get('location'), `${shopOrigin}/checkout?momo_return=${decision === 'approve' ? 'success' : 'failure'}&momo_order=${orderId}`);
      const final = await h.waitFor(orderId, (view) => view.state === (decision === 'approve' ? 'completed' : 'failed'));
      assert.equal(final.returned, true);
    });
  }
});

describe('pay: asking again while the code is awaited', () => {
  it('does not post again without the code for the same number and choice', async () => {
    let payIns = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/v1/pay-in')) payIns += 1;
      return fetch(input, init);
    };
    const own = await startHarness({ fetch: counting });
    try {
      const orderId = newOrderId();
      const token = await own.checkout(orderId);
      await own.json('/checkout/pay', { token, body: { phoneNumber: otp.approve, useWallet: false } });
      assert.equal(payIns, 1);
      const again = await own.json('/checkout/pay', { token, body: { phoneNumber: otp.approve, useWallet: false } });
      assert.equal(again.body.state, 'needs-otp');
      assert.equal(payIns, 1, 'the same 422 is not asked twice');
      // A different number is a new question: it is posted (same order id, nothing was created).
      const other = await own.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
      assert.equal(other.body.state, 'pending');
      assert.equal(payIns, 2);
      assert.equal(own.sandbox.control.transaction(orderId)?.phoneNumber, push.noAnswer);
    } finally {
      await own.close();
    }
  });
});
