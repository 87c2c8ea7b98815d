/**
 * Refunds end to end, against the sandbox over real HTTP: a paid order refunded in part then in
 * full makes exactly two pay-outs to the number that paid, a third is refused, a repeated refundId
 * makes no new pay-out, and the merchant receives a signed `refund.updated` for each outcome.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { refundCommand } from '../../../src/server/commands/refund.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const serverSecret = 'refund-test-server-secret-0123456789abcdef';
const merchantSecret = `whsec_${Buffer.from('merchant-refund-test-key-32-bytes!').toString('base64')}`;
const payer = '+2290196000001';

interface Received {
  headers: Record<string, string>;
  body: string;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      headers: { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) },
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.statusCode = 204;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/momo-events`, received, server };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('refunds against the sandbox', () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
    h = await startHarness({ refunds: true, serverSecret, merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret, merchantEvents: ['payment.updated', 'refund.updated'], deliveryRetryDelaysMs: [40], setupChecksAtStart: false });
  });
  after(async () => {
    await h.close();
    receiver.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  });

  const refund = (orderId: string, body: unknown) =>
    fetch(`${h.base}/server/payments/${encodeURIComponent(orderId)}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  const details = (orderId: string) =>
    fetch(`${h.base}/server/payments/${encodeURIComponent(orderId)}`, { headers: { authorization: `Bearer ${serverSecret}` } }).then((response) => response.json() as Promise<any>);
  const payouts = () => h.sandbox.control.transactions().filter((transaction) => transaction.kind === 'payout');

  async function paidOrder(amount = '5000'): Promise<string> {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, amount);
    const paid = await h.json('/checkout/pay', { token, body: { phoneNumber: payer, useWallet: false } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    await h.waitFor(orderId, (view) => view.state === 'completed');
    return orderId;
  }

  it('refunds in part then in full, refuses a third, and makes no new pay-out for a repeated refundId', async () => {
    const orderId = await paidOrder('5000');
    const before = payouts().length;

    const first = await refund(orderId, { refundId: 'rf-1', amount: '2000', reason: 'damaged item' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.amount, '2000');
    assert.ok(['pending', 'completed'].includes(first.body.state), first.body.state);
    assert.notEqual(first.body.payoutOrderId, orderId);

    const second = await refund(orderId, { refundId: 'rf-2', amount: '3000' });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.notEqual(second.body.payoutOrderId, first.body.payoutOrderId);

    const third = await refund(orderId, { refundId: 'rf-3', amount: '1' });
    assert.equal(third.status, 422);
    assert.equal(third.body.error.code, 'EXCEEDS_PAID_AMOUNT');

    const again = await refund(orderId, { refundId: 'rf-1', amount: '2000', reason: 'damaged item' });
    assert.equal(again.status, 200);
    assert.equal(again.body.payoutOrderId, first.body.payoutOrderId);
    const reused = await refund(orderId, { refundId: 'rf-1', amount: '2500' });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'REFUND_ID_REUSED');

    const made = payouts().slice(before);
    assert.equal(made.length, 2, 'exactly two pay-outs');
    assert.deepEqual(made.map((payout) => [payout.phoneNumber, payout.amount]), [[payer, '2000'], [payer, '3000']]);

    // The service's notifications settle both; GET lists them.
    const settled = await until('both refunds completed', async () => {
      const read = await details(orderId);
      return read.refunds.length === 2 && read.refunds.every((item: any) => item.state === 'completed') ? read : undefined;
    });
    assert.deepEqual(settled.refunds.map((item: any) => item.refundId), ['rf-1', 'rf-2']);
    assert.equal(settled.refunds[0].phoneNumberMasked.includes(payer), false, 'the number is masked');

    // A signed refund.updated for each outcome.
    const events = await until('refund.updated completed for both', () => {
      const refunds = receiver.received
        .map((item) => new Webhook(merchantSecret).verify(item.body, item.headers) as { type: string; data: any })
        .filter((event) => event.type === 'refund.updated' && event.data.orderId === orderId);
      return refunds.filter((event) => event.data.refund.state === 'completed').length === 2 ? refunds : undefined;
    });
    for (const refundId of ['rf-1', 'rf-2']) {
      assert.deepEqual(
        events.filter((event) => event.data.refund.refundId === refundId).map((event) => event.data.refund.state),
        ['pending', 'completed'],
      );
    }
  });

  it('refuses a payment that is not completed, an amount too precise, and a malformed refundId', async () => {
    const orderId = newOrderId();
    await h.checkout(orderId, '5000');
    assert.equal((await refund(orderId, { refundId: 'rf-x', amount: '100' })).body.error.code, 'NOT_REFUNDABLE');
    const paid = await paidOrder('5000');
    const precise = await refund(paid, { refundId: 'rf-p', amount: '100.5' });
    assert.equal(precise.status, 422);
    assert.equal(precise.body.error.code, 'AMOUNT_INVALID');
    assert.equal((await refund(paid, { refundId: 'has space', amount: '100' })).body.error.code, 'BAD_REQUEST');
    assert.equal((await refund('no-such-order', { refundId: 'rf', amount: '100' })).status, 404);
  });

  it('is off until the shop turns it on', async () => {
    const off = await startHarness({ serverSecret, setupChecksAtStart: false });
    try {
      const response = await fetch(`${off.base}/server/payments/x/refunds`, {
        method: 'POST',
        headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ refundId: 'rf', amount: '1' }),
      });
      assert.equal(response.status, 403);
      assert.equal(((await response.json()) as any).error.code, 'REFUNDS_DISABLED');
      await assert.rejects(off.companion.refund({ orderId: 'x', refundId: 'rf', amount: '1' }), { code: 'REFUNDS_DISABLED' });
    } finally {
      await off.close();
    }
  });
});

describe('refunds whose pay-out answer is lost', () => {
  let h: Harness;
  before(async () => {
    // The sandbox settles a pay-out a second after it is accepted, not 30 ms: on a loaded machine
    // the pay-out's notification could otherwise be applied before the refund call reads its
    // answer back, and 'pending' (accepted, not yet settled) would read 'completed'.
    h = await startHarness({ refunds: true, serverSecret, setupChecksAtStart: false }, { pushDelayMs: 1000 });
  });
  after(() => h.close());

  async function paidOrder(): Promise<string> {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: payer, useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    return orderId;
  }
  const payoutsOf = (payoutOrderId: string) => h.sandbox.control.transactions().filter((transaction) => transaction.kind === 'payout' && transaction.orderId === payoutOrderId);

  it('posts the same pay-out id again after a lost answer: a 409 means it exists, one pay-out', async () => {
    const orderId = await paidOrder();
    h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-out', times: 1 });
    const refund = await h.companion.refund({ orderId, refundId: 'rf-lost', amount: '1000' });
    assert.equal(refund.state, 'pending');
    assert.equal(payoutsOf(refund.payoutOrderId).length, 1);
  });

  it('leaves a refund unknown when the answer is lost twice, and resumes it with the same id on a repeat', async () => {
    const orderId = await paidOrder();
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-out', times: 2 });
    const lost = await h.companion.refund({ orderId, refundId: 'rf-unknown', amount: '1000' });
    assert.equal(lost.state, 'unknown');
    assert.equal(payoutsOf(lost.payoutOrderId).length, 0, 'a 500 created nothing here');
    // While unknown it may have paid out: it still counts against the amount paid.
    await assert.rejects(h.companion.refund({ orderId, refundId: 'rf-over', amount: '4500' }), { code: 'EXCEEDS_PAID_AMOUNT' });
    const resumed = await h.companion.refund({ orderId, refundId: 'rf-unknown', amount: '1000' });
    assert.equal(resumed.payoutOrderId, lost.payoutOrderId);
    assert.equal(resumed.state, 'pending');
    assert.equal(payoutsOf(lost.payoutOrderId).length, 1);
  });

  it('fails a refund at once for an insufficient balance, keeps the cause and the balance, and no longer counts it', async () => {
    const orderId = await paidOrder();
    h.sandbox.control.setBalance('XOF', '100');
    const failed = await h.companion.refund({ orderId, refundId: 'rf-poor', amount: '5000' });
    assert.equal(failed.state, 'failed');
    assert.equal(failed.failureCategory, 'INSUFFICIENT_FUNDS');
    assert.equal(failed.newBalance, '100');
    h.sandbox.control.setBalance('XOF', '1000000');
    const again = await h.companion.refund({ orderId, refundId: 'rf-rich', amount: '5000' });
    assert.equal(again.state, 'pending', 'the failed refund no longer counts against the amount paid');
  });

  it('keeps a refund pending while the recipient does not answer, until the service settles it', async () => {
    const silent = '+2290196000003';
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    await h.json('/checkout/pay', { token, body: { phoneNumber: silent, useWallet: false } });
    await h.sandbox.control.settle(orderId, 'completed');
    await h.waitFor(orderId, (view) => view.state === 'completed');
    const pending = await h.companion.refund({ orderId, refundId: 'rf-wait', amount: '2000' });
    assert.equal(pending.state, 'pending');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const stored = async () => (await h.companion.refund({ orderId, refundId: 'rf-wait', amount: '2000' })).state;
    assert.equal(await stored(), 'pending', 'still pending: the recipient never answers');
    await h.sandbox.control.settle(pending.payoutOrderId, 'failed');
    await until('the refund failed', async () => ((await stored()) === 'failed' ? true : undefined));
  });

  it('refunds from the command line through the server API, and a repeat makes no second pay-out', async () => {
    const orderId = await paidOrder();
    const env = { MOMO_SERVER_URL: `${h.base}/server`, MOMO_SERVER_SECRET: serverSecret };
    const lines: string[] = [];
    assert.equal(await refundCommand([orderId, '1500', '--id', 'rf-cli'], env, (line) => lines.push(line)), 0);
    assert.match(lines[0]!, /^Refund rf-cli of 1500 XOF to .*: pending \(pay-out /);
    assert.equal(await refundCommand([orderId, '1500', '--id', 'rf-cli'], env, (line) => lines.push(line)), 0);
    const over = await refundCommand([orderId, '4000', '--id', 'rf-cli-2'], env, (line) => lines.push(line));
    assert.equal(over, 1);
    assert.match(lines.at(-1)!, /refused \(HTTP 422 EXCEEDS_PAID_AMOUNT\): .*at most 3500 is left/);
    const read = await h.companion.refund({ orderId, refundId: 'rf-cli', amount: '1500' });
    assert.equal(payoutsOf(read.payoutOrderId).length, 1);
  });
});
