/**
 * Bounds are per (operator, currency) entry (§2.1): an order over the operator's ceiling may still
 * be paid through the wallet, so the lookup offers what fits and the pay route refuses the entry
 * that does not, naming its bounds, without calling the service.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderId, startHarness, type Harness } from '../harness.js';

// Côte d'Ivoire: MTN takes up to 1,000,000 XOF, the wallet up to 1,500,000 (sandbox catalogue).
const ciMtn = '+2250500000001';

let h: Harness;
before(async () => {
  h = await startHarness({ setupChecksAtStart: false });
});
after(async () => h.close());

describe('amount bounds per entry', () => {
  it('offers the number when only the wallet takes the amount, and refuses paying through the operator', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '1200000', 'XOF');
    const lookup = await h.json('/checkout/lookup', { token, body: { phoneNumber: ciMtn } });
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.operator.maxAmount, '1000000');
    assert.equal(lookup.body.wallet.maxAmount, '1500000');

    const pay = await h.json('/checkout/pay', { token, body: { phoneNumber: ciMtn, useWallet: false } });
    assert.equal(pay.status, 400);
    assert.equal(pay.body.error.code, 'AMOUNT_OUT_OF_RANGE');
    assert.deepEqual(pay.body.error.details, { min: '100', max: '1000000', currencyCode: 'XOF' });
    assert.equal(h.sandbox.control.transaction(orderId), undefined, 'nothing was sent to the service');
  });

  it('refuses the lookup when no entry takes the amount', async () => {
    const token = await h.checkout(undefined, '1800000', 'XOF');
    const lookup = await h.json('/checkout/lookup', { token, body: { phoneNumber: ciMtn } });
    assert.equal(lookup.status, 400);
    assert.equal(lookup.body.error.code, 'AMOUNT_OUT_OF_RANGE');
    assert.equal(lookup.body.error.details.max, '1000000');
  });
});
