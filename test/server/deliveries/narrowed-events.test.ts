/**
 * Narrowing `MOMO_MERCHANT_EVENTS` holds for what was queued before (issue 40, finding 8): a
 * companion restarted with `refund.updated` taken off the list sends no `refund.updated` still
 * waiting for a retry (it is dropped, unsent, not retried for 72 hours), and `redeliver` with
 * `all` sends only the types the endpoint takes now. A restart on the same file store, as a
 * merchant would do it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore, type CompanionOptions } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { merchantSecret, startReceiver, until, verified } from './merchant-receiver.js';

const serverSecret = 'narrowed-events-server-secret-0123456789abcdef';
const payer = '+2290196000001';

describe('a narrowed merchant subscription', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dataDir: string;
  before(async () => {
    receiver = await startReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'momo-narrowed-events-'));
  });
  after(async () => {
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const companion = (merchantEvents: string[]) =>
    startHarness({
      refunds: true,
      serverSecret,
      merchantWebhookUrl: receiver.url,
      merchantWebhookSecret: merchantSecret,
      merchantEvents,
      deliveryRetryDelaysMs: [150],
      setupChecksAtStart: false,
      store: createFileStore({ dataDir }),
    } as Partial<CompanionOptions>);
  const api = async (h: Harness, path: string, body?: unknown) => {
    const response = await fetch(`${h.base}/server${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const paidAndRefunded = async (h: Harness) => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: payer, useWallet: false } })).status, 200);
    await h.waitFor(orderId, (view) => view.state === 'completed');
    assert.equal((await api(h, `/payments/${orderId}/refunds`, { refundId: 'rf-1', amount: '1000' })).status, 200);
    return orderId;
  };
  const sentFor = (orderId: string, from = 0) => receiver.received.slice(from).filter((item) => item.body.includes(orderId)).map((item) => verified(item).type);

  it('drops a queued type taken off the list unsent, and redelivers with all only the types still listed', async () => {
    // Before: the endpoint took both types. Order `acknowledged` had its refund notification
    // delivered; order `waiting` has it refused and queued for a retry.
    let refuseRefundsOf = '';
    receiver.answer = (_req, _res, body) => (body.includes(refuseRefundsOf) && (JSON.parse(body) as { type: string }).type === 'refund.updated' ? 500 : 204);
    const before = await companion(['payment.updated', 'refund.updated']);
    let acknowledged: string;
    let waiting: string;
    try {
      acknowledged = await paidAndRefunded(before);
      await until('the refund notification of the acknowledged order', () => sentFor(acknowledged).includes('refund.updated'));
      waiting = newOrderId();
      refuseRefundsOf = waiting;
      const token = await before.checkout(waiting, '5000');
      assert.equal((await before.json('/checkout/pay', { token, body: { phoneNumber: payer, useWallet: false } })).status, 200);
      await before.waitFor(waiting, (view) => view.state === 'completed');
      assert.equal((await api(before, `/payments/${waiting}/refunds`, { refundId: 'rf-1', amount: '1000' })).status, 200);
      await until('a refused refund notification', () => sentFor(waiting).includes('refund.updated'));
    } finally {
      await before.close();
    }
    const store = createFileStore({ dataDir });
    const pendingBefore = (await store.getByOrderId(waiting))?.deliveries ?? [];
    await store.close?.();
    assert.ok(pendingBefore.some((delivery) => delivery.refund?.refund.refundId === 'rf-1'), 'the refund notification waits for a retry');

    // After: restarted with payment.updated only; the endpoint now answers everything.
    receiver.answer = () => 204;
    const seen = receiver.received.length;
    const after = await companion(['payment.updated']);
    try {
      await until('the queue of the waiting order is empty', async () => (await api(after, `/payments/${waiting}`)).body.deliveries.pending.length === 0);
      await new Promise((resolve) => setTimeout(resolve, 400)); // a retry would show by now
      assert.deepEqual(sentFor(waiting, seen), [], 'the queued refund.updated was not sent');

      const again = await api(after, `/payments/${acknowledged}/redeliver?all=1`, {});
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.ok(again.body.deliveries.length >= 2, JSON.stringify(again.body));
      assert.ok(again.body.deliveries.every((delivery: { refundId?: string }) => delivery.refundId === undefined), 'no refund notification redelivered');
      assert.deepEqual([...new Set(sentFor(acknowledged, seen))], ['payment.updated']);
    } finally {
      await after.close();
    }
  });
});
