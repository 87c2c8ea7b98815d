/**
 * Deliveries stored by 0.4.0 stay readable (issue 42): they have `update` or `refund` and no `kind`.
 * On every engine, written as 0.4.0 left its store (test/support/stores-040.ts: the file's schema 1,
 * PostgreSQL's migration 1, Redis without the later views; the memory store through its own
 * create) and opened by this version, each pending one is still due and goes out as 0.4.0 sent it:
 * the same body byte for byte, under its `webhook-id`, signed, and the right callback hears it. A
 * redelivery of one writes the kind it was read as.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore, createMemoryStore, type PaymentUpdate, type RefundUpdate } from '../../../src/server/index.js';
import { createDeliverySinks } from '../../../src/server/deliveries/delivery-sinks.js';
import { createDeliveryWorker } from '../../../src/server/deliveries/delivery-worker.js';
import { requeueDeliveries } from '../../../src/server/deliveries/redeliver.js';
import { silentLogger } from '../../../src/server/log.js';
import { reportedBy, type CheckoutRecord } from '../../../src/server/model/records.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createRedisStore } from '../../../src/server/stores/redis/redis-store.js';
import { sampleRecord, samplePaymentView, withPayment } from '../../../src/server/stores/store-contract.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { createDatabase, startPostgresServer } from '../../support/postgres-server.js';
import { startRedisServer } from '../../support/redis-server.js';
import { writeFileAs040, writePostgresAs040, writeRedisAs040 } from '../../support/stores-040.js';
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

/** An engine holding what 0.4.0 wrote: `open040` writes records as 0.4.0 did and opens this version's store over them. */
interface Engine040 {
  open040(records: readonly CheckoutRecord[]): Promise<CheckoutStore>;
  stop(): Promise<void>;
}

const engines: Record<string, () => Promise<Engine040>> = {
  // Nothing in memory outlives a process, but a store of one's own may be handed records of any age.
  memory: async () => ({
    open040: async (records) => {
      const store = createMemoryStore();
      for (const record of records) await store.createIfAbsent(record);
      return store;
    },
    stop: async () => {},
  }),
  file: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-040-deliveries-'));
    let files = 0;
    return {
      open040: async (records) => {
        const path = join(dir, `v040-${++files}.sqlite`);
        writeFileAs040(path, records);
        return createFileStore({ path });
      },
      stop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  PostgreSQL: async () => {
    const server = await startPostgresServer();
    return {
      open040: async (records) => {
        const database = createDatabase(server);
        writePostgresAs040(server, database, records);
        return createPostgresStore({ url: server.urlOf(database), log: silentLogger });
      },
      stop: () => server.stop(),
    };
  },
  Redis: async () => {
    const server = await startRedisServer();
    let prefixes = 0;
    return {
      open040: async (records) => {
        const prefix = `v040-${++prefixes}:`;
        await writeRedisAs040(server.url, prefix, records);
        return createRedisStore({ url: server.url, keyPrefix: prefix, log: silentLogger });
      },
      stop: () => server.stop(),
    };
  },
};

for (const [name, start] of Object.entries(engines)) {
  describe(`deliveries stored by 0.4.0 (no kind), on the ${name} store`, () => {
    let engine: Engine040;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      engine = await start();
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await engine.stop();
    });

    it('are sent as 0.4.0 sent them: the same bodies, ids and callbacks, each of its own kind', async () => {
      const orderId = `order-040-a-${name}`;
      const store = await engine.open040([stored040(orderId)]);
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
        // Still due after the upgrade: the store's index of pending deliveries holds it.
        assert.ok((await store.dueDeliveries(Date.now(), 1_000)).includes(orderId), 'the pending deliveries are due');
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
      const orderId = `order-040-b-${name}`;
      const record = stored040(orderId);
      // Both of them acknowledged by the endpoint long ago, as 0.4.0 kept them.
      const settled = record.deliveries.filter((delivery) => delivery.sink === 'webhook').map((delivery) => ({ ...delivery, delivered: true, settledAt: createdAt + 5 }));
      const store = await engine.open040([{ ...record, deliveries: [], settledDeliveries: settled }]);
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
}
