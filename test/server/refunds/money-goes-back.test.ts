/**
 * Money goes out only where it came from, once (issue 30): a pay-in whose outcome is unknown cannot
 * be re-pointed at another number, a refund pays the number the service reported as paying, a
 * notification naming another number is held for support, and every refund without an outcome is
 * listed with the sentence to act on. Against the sandbox over real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCompanion, createMemoryStore, signWebhook, type CheckoutStore } from '../../../src/server/index.js';
import { refundCompanionOptions } from './fixtures/companion-options.js';
import { updateCheckoutRecord } from '../../../src/server/stores/store.js';
import { newRefundRecord } from '../../../src/server/model/refund.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const payer = { approve: '+2290196000001', other: '+2290196000003', third: '+2290196000002' };

let h: Harness;
let store: CheckoutStore;
before(async () => {
  store = createMemoryStore();
  h = await startHarness({ refunds: true, store, serviceTimeoutMs: 300, maintenanceIntervalMs: 50 });
});
after(async () => h.close());

const transactionsOf = (orderId: string, kind: 'payin' | 'payout') =>
  h.sandbox.control.transactions().filter((entry) => entry.kind === kind && entry.orderId.startsWith(orderId));

async function paidOrder(phoneNumber = payer.approve): Promise<string> {
  const orderId = newOrderId();
  const token = await h.checkout(orderId);
  await h.json('/checkout/pay', { token, body: { phoneNumber, useWallet: false } });
  await h.waitFor(orderId, (view) => view.state === 'completed');
  return orderId;
}

describe('a pay-in whose outcome is unknown', () => {
  it('refuses another number while it is unknown, and the refund pays the number the service collected from', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    // Created upstream with the first number (one that does not answer at once), and both answers
    // lost: the outcome is unknown.
    h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 2 });
    const first = await h.json('/checkout/pay', { token, body: { phoneNumber: payer.other, useWallet: false } });
    assert.equal(first.body.state, 'unknown');

    const other = await h.json('/checkout/pay', { token, body: { phoneNumber: payer.approve, useWallet: false } });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'PAYMENT_IN_PROGRESS');
    assert.match(other.body.error.message, /still being checked/);
    assert.doesNotMatch(other.body.error.message, /0196000003/, 'the number is masked in the sentence');
    const wallet = await h.json('/checkout/pay', { token, body: { phoneNumber: payer.other, useWallet: true } });
    assert.equal(wallet.status, 409, 'the wallet is another request too');

    // The service collects from the number it was sent (its notification carries that number).
    await h.sandbox.control.settle(orderId, 'completed');
    const paid = await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal(paid.phoneNumberMasked.endsWith('03'), true, 'the record still names the number that was posted');
    assert.equal(transactionsOf(orderId, 'payin').length, 1);

    const refund = await h.companion.refund({ orderId, refundId: 'rf-unknown-1', amount: '5000' });
    assert.equal(refund.phoneNumberMasked.endsWith('03'), true);
    const payouts = transactionsOf(orderId, 'payout');
    assert.equal(payouts.length, 1);
    assert.equal(payouts[0]!.phoneNumber, payer.other, 'the pay-out goes to the number that paid');
  });

  it('re-posts the same number after the unknown outcome, and a 409 to it is ours', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 2 });
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: payer.other, useWallet: false } })).body.state, 'unknown');
    const again = await h.json('/checkout/pay', { token, body: { phoneNumber: payer.other, useWallet: false } });
    assert.equal(again.status, 200);
    assert.equal(again.body.state, 'pending', 'the 409 to the same request means it exists');
    await h.sandbox.control.settle(orderId, 'completed');
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal(transactionsOf(orderId, 'payin').length, 1);
  });

  it('lets the payer change the number after a 422 (nothing was created)', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    const otpNumber = h.sandbox.control.testNumbers().find((entry) => entry.workflow === 'pre_authorized')!.phoneNumber;
    const asked = await h.json('/checkout/pay', { token, body: { phoneNumber: otpNumber, useWallet: false } });
    assert.equal(asked.body.state, 'needs-otp');
    const changed = await h.json('/checkout/pay', { token, body: { phoneNumber: payer.approve, useWallet: false } });
    assert.equal(changed.status, 200);
    await h.waitFor(orderId, (view) => view.state === 'completed');
  });
});

describe('a verified notification naming another number', () => {
  it('is held for support: never paid, not refundable, listed with the sentence to send', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    await h.json('/checkout/pay', { token, body: { phoneNumber: payer.other, useWallet: false } });
    const body = await signWebhook({ phoneNumber: payer.third, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
    const answer = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(answer.status, 200, 'a verified notification is acknowledged: the service sends it once');

    const view = (await h.companion.getPayment(orderId))!;
    assert.equal(view.state, 'failed');
    assert.equal(view.canRetry, false);
    const update = h.updates.filter((item) => item.orderId === orderId).at(-1)!;
    assert.equal(update.phoneMismatch, true);
    assert.equal(update.payment.state, 'failed');

    await assert.rejects(h.companion.refund({ orderId, refundId: 'rf-mismatch', amount: '5000' }), { code: 'NOT_REFUNDABLE' });
    assert.equal(transactionsOf(orderId, 'payout').length, 0);

    const stale = await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 });
    const listed = stale.find((item) => item.orderId === orderId && item.refund === null);
    assert.ok(listed, 'listed for support');
    assert.match(listed.action, /support/);
    assert.match(listed.action, /not treated as paid/);
  });
});

describe('stuck refunds', () => {
  it('lists a refund whose pay-out answer was lost twice, with the sentence to act on', async () => {
    const orderId = await paidOrder();
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-out', times: 2 });
    const refund = await h.companion.refund({ orderId, refundId: 'rf-lost', amount: '1000' });
    assert.equal(refund.state, 'unknown');
    const stale = await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 });
    const listed = stale.find((item) => item.orderId === orderId && item.refund?.refundId === 'rf-lost');
    assert.ok(listed, `the refund is listed: ${JSON.stringify(stale.map((item) => [item.orderId, item.refund]))}`);
    assert.equal(listed.serviceOrderId, refund.payoutOrderId);
    assert.equal(listed.amount, '1000');
    assert.match(listed.action, /lost/);
    assert.match(listed.action, /rf-lost/);
  });

  it('resumes by refundId and amount alone whatever reason was stored (the console stores one)', async () => {
    const orderId = await paidOrder();
    const first = await h.companion.refund({ orderId, refundId: 'rf-reason', amount: '1500', reason: 'console' });
    const again = await h.companion.refund({ orderId, refundId: 'rf-reason', amount: '1500' });
    assert.equal(again.payoutOrderId, first.payoutOrderId);
    await assert.rejects(h.companion.refund({ orderId, refundId: 'rf-reason', amount: '1500', reason: 'another' }), { code: 'REFUND_ID_REUSED' });
    assert.equal(transactionsOf(orderId, 'payout').length, 1);
  });

  it('posts a refund left `sending` by a stop again under its pay-out id at the restart, once', async () => {
    const orderId = await paidOrder();
    const payoutOrderId = `${orderId}-r1`;
    // What a process killed between writing the refund and posting it leaves (refund-kill.test.ts
    // kills a real one after the post): a refund in `sending`, two minutes old, nothing posted.
    const twoMinutesAgo = Date.now() - 120_000;
    await updateCheckoutRecord(store, orderId, (record) => ({
      ...record,
      refunds: [newRefundRecord({ refundId: 'rf-stopped', payoutOrderId, amount: '2500', reason: null, phoneNumber: record.payment!.reportedPhoneNumber! }, twoMinutesAgo)],
    }));
    // The restarted companion, on the same store, resumes it by itself: nobody repeats the call.
    const restarted = createCompanion(refundCompanionOptions(h.sandbox, store));
    try {
      await restarted.resumed;
      assert.notEqual((await store.getByOrderId(orderId))!.refunds![0]!.state, 'sending');
    } finally {
      await restarted.close();
    }
    const payouts = transactionsOf(orderId, 'payout');
    assert.equal(payouts.length, 1);
    assert.equal(payouts[0]!.orderId, payoutOrderId);
    assert.equal(payouts[0]!.phoneNumber, payer.approve);
  });

  it('lists a refund whose genuine notification came late and was refused for its timestamp', async () => {
    const orderId = await paidOrder();
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-out', times: 2 });
    const refund = await h.companion.refund({ orderId, refundId: 'rf-late', amount: '1000' });
    const late = await signWebhook({ phoneNumber: payer.approve, amount: 1000, orderId: refund.payoutOrderId, status: 'completed' }, h.sandbox.webhookSecret, { now: () => Date.now() - 3_600_000 });
    const answer = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: late });
    assert.equal(answer.status, 400);
    const stale = await h.companion.listPayments({ state: 'stale', olderThanMinutes: 60 });
    const listed = stale.find((item) => item.refund?.refundId === 'rf-late');
    assert.ok(listed, 'listed whatever its age');
    assert.deepEqual(listed.refusedNotification?.status, 'completed');
    assert.match(listed.action, /clock/);
  });
});
