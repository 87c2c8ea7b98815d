/**
 * A payment whose notified amount differs from the order is never shown as paid, to the payer or to
 * the merchant, even when a matching `completed` follows (issue 12, item 10): one truth for both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signWebhook } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const noAnswer = '+2290196000003';

let h: Harness;
before(async () => {
  h = await startHarness({ setupChecksAtStart: false });
});
after(async () => h.close());

describe('amount mismatch', () => {
  it('fails the payment at once, without retry, and a later matching "completed" changes nothing', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
    const stream = await h.call('/checkout/events', { token });

    const mismatched = await signWebhook({ phoneNumber: noAnswer, amount: 50, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    assert.equal((await h.companion.handleWebhook(mismatched)).outcome, 'applied');
    const matching = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    await h.companion.handleWebhook(matching);

    // The page: failed, no retry, on the status route and on the stream (which then ends).
    const view = (await h.json('/checkout/status', { token })).body.payment;
    assert.equal(view.state, 'failed');
    assert.equal(view.canRetry, false);
    const text = await stream.text();
    assert.match(text, /"state":"failed"/);
    assert.doesNotMatch(text, /"state":"completed"/);

    // The merchant: the same state, flagged, reported once; never completed.
    const updates = h.updates.filter((update) => update.orderId === orderId);
    assert.deepEqual(
      updates.map((update) => [update.payment.state, update.amountMismatch]),
      [
        ['pending', false],
        ['failed', true],
      ],
    );

    // Paying again changes nothing: no new attempt for a payment support must look at.
    const again = await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001', useWallet: false } });
    assert.equal(again.body.state, 'failed');
    assert.equal(h.sandbox.control.transaction(`${orderId}-a2`), undefined);
  });
});
