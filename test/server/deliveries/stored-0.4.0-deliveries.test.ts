/**
 * Deliveries stored by 0.4.0 stay readable (issue 42): they have `update` or `refund` and no `kind`.
 * Written to a file store in that shape, then read back by another store object over the same file,
 * each goes out as 0.4.0 sent it: the same body byte for byte, under its `webhook-id`, signed, and
 * the right callback hears it. A redelivery of one writes the kind it was read as.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore, type PaymentUpdate, type RefundUpdate } from '../../../src/server/index.js';
import { createDeliverySinks } from '../../../src/server/deliveries/delivery-sinks.js';
import { createDeliveryWorker } from '../../../src/server/deliveries/delivery-worker.js';
import { requeueDeliveries } from '../../../src/server/deliveries/redeliver.js';
import { silentLogger } from '../../../src/server/log.js';
import { reportedBy, type CheckoutRecord } from '../../../src/server/model/records.js';
import { sampleRecord, samplePaymentView, withPayment } from '../../../src/server/stores/store-contract.js';
import { merchantSecret, startReceiver, until, verified } from './merchant-receiver.js';

const createdAt = Date.parse('2026-05-01T10:00:00.000Z');

function paymentUpdate(orderId: string): PaymentUpdate {
  return {
    orderId,
    idempotencyKey: `${orderId}.life.2`,
    amount: '5000',
    currencyCode: 'XOF',
    payment: { ...samplePaymentView(orderId, 2), state: 'completed' },
    previousState: 'pending',
    amountMismatch: false,
    phoneMismatch: false,
  };
}

function refundUpdate(orderId: string): RefundUpdate {
  return {
    orderId,
    idempotencyKey: `${orderId}.life.refund.rf-1.1`,
    refund: {
      refundId: 'rf-1',
      payoutOrderId: `${orderId}-r1`,
      amount: '1000',
      currencyCode: 'XOF',
      reason: null,
      state: 'completed',
      phoneNumberMasked: '+229 •• •• •• •• 01',
      transactionId: 'tx-1',
      failureCategory: null,
      failureReason: null,
      newBalance: null,
      amountMismatch: false,
      createdAt: new Date(createdAt).toISOString(),
      updatedAt: new Date(createdAt).toISOString(),
    },
    previousState: 'pending',
  };
}

/** A record as 0.4.0 wrote it: each delivery's kind told only by which of `update` / `refund` it has. */
function stored040(orderId: string): CheckoutRecord {
  const base = withPayment(sampleRecord({ orderId }), `${orderId}`, 1, 'completed');
  const update = paymentUpdate(orderId);
  const refund = refundUpdate(orderId);
  const deliveries = (['webhook', 'callback'] as const).flatMap((sink) => [
    { id: update.idempotencyKey, sink, update, createdAt, attempts: 0, nextAttemptAt: createdAt },
    { id: refund.idempotencyKey, sink, refund, createdAt: createdAt + 1, attempts: 0, nextAttemptAt: createdAt + 1 },
  ]);
  return { ...base, deliveries };
}

describe('deliveries stored by 0.4.0 (no kind), on the file store', () => {
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'momo-040-deliveries-'));
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are sent as 0.4.0 sent them: the same bodies, ids and callbacks, each of its own kind', async () => {
    const orderId = 'order-040-a';
    const writer = createFileStore({ dataDir: dir });
    assert.equal((await writer.createIfAbsent(stored040(orderId))).created, true);
    await writer.close?.();

    const store = createFileStore({ dataDir: dir });
    const heard: string[] = [];
    const sinks = createDeliverySinks(
      {
        onPaymentUpdate: (update) => void heard.push(`payment ${update.idempotencyKey}`),
        onRefundUpdate: (update) => void heard.push(`refund ${update.idempotencyKey} ${update.refund.refundId}`),
        merchantWebhookUrl: receiver.url,
        merchantWebhookSecret: merchantSecret,
      },
      Date.now,
    );
    const worker = createDeliveryWorker({ store, log: silentLogger, now: Date.now, sinks });
    try {
      const read = await store.getByOrderId(orderId);
      assert.deepEqual(read!.deliveries.map(reportedBy), [
        { reportedState: 'completed' },
        { reportedState: 'completed', refundId: 'rf-1' },
        { reportedState: 'completed' },
        { reportedState: 'completed', refundId: 'rf-1' },
      ]);
      // One head per sink a round (each sink hears an order's notifications in order).
      await until('both queued deliveries of each sink', async () => {
        await worker.deliverNow(orderId);
        return (await store.getByOrderId(orderId))?.deliveries.length === 0;
      });

      // What 0.4.0 sent: type, timestamp, data, in that order, with the payload as stored.
      const iso = (at: number) => new Date(at).toISOString();
      const mine = receiver.received.filter((item) => item.body.includes(orderId));
      assert.deepEqual(
        mine.map((item) => [item.id, item.body]),
        [
          [paymentUpdate(orderId).idempotencyKey, JSON.stringify({ type: 'payment.updated', timestamp: iso(createdAt), data: paymentUpdate(orderId) })],
          [refundUpdate(orderId).idempotencyKey, JSON.stringify({ type: 'refund.updated', timestamp: iso(createdAt + 1), data: refundUpdate(orderId) })],
        ],
      );
      for (const item of mine) verified(item);
      assert.deepEqual(heard, [`payment ${orderId}.life.2`, `refund ${orderId}.life.refund.rf-1.1 rf-1`]);
    } finally {
      await worker.stop();
      await store.close?.();
    }
  });

  it('a redelivery of one keeps its payload and writes the kind it was read as', async () => {
    const orderId = 'order-040-b';
    const writer = createFileStore({ dataDir: dir });
    const record = stored040(orderId);
    // Both of them acknowledged by the endpoint long ago, as 0.4.0 kept them.
    const settled = record.deliveries.filter((delivery) => delivery.sink === 'webhook').map((delivery) => ({ ...delivery, delivered: true, settledAt: createdAt + 5 }));
    await writer.createIfAbsent({ ...record, deliveries: [], settledDeliveries: settled });
    await writer.close?.();

    const store = createFileStore({ dataDir: dir });
    try {
      const requeued = await requeueDeliveries(store, 'webhook', { orderId, all: true }, createdAt + 10);
      assert.deepEqual(
        requeued?.map((delivery) => [delivery.kind, reportedBy(delivery)]),
        [
          ['payment', { reportedState: 'completed' }],
          ['refund', { reportedState: 'completed', refundId: 'rf-1' }],
        ],
      );
      const queued = (await store.getByOrderId(orderId))!.deliveries;
      assert.deepEqual(
        queued.map((delivery) => [delivery.kind, delivery.update?.idempotencyKey ?? null, delivery.refund?.idempotencyKey ?? null]),
        [
          ['payment', `${orderId}.life.2`, null],
          ['refund', null, `${orderId}.life.refund.rf-1.1`],
        ],
      );
    } finally {
      await store.close?.();
    }
  });
});
