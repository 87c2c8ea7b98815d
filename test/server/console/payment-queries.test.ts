/**
 * The console's queries give the same answers on the three stores (they read only the store's
 * interface): a state filter, an age window, an order found by its own id or by an attempt's id at
 * the service, and a payment's timeline in the order things happened, with no full phone number.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findPayments, findUnpaidCheckout, paymentDetail } from '../../../src/server/console/payment-queries.js';
import { createLogger } from '../../../src/server/log.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';
import { createRedisStore } from '../../../src/server/stores/redis/redis-store.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { sampleRecord, samplePayment } from '../../../src/server/stores/store-contract.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';

const now = Date.now();
const minute = 60_000;

describe('console queries on every store', () => {
  let redis: RedisServer;
  const dir = mkdtempSync(join(tmpdir(), 'momo-console-queries-'));
  const stores: Array<[string, () => Promise<CheckoutStore>]> = [
    ['memory', async () => createMemoryStore()],
    ['file', async () => createFileStore({ path: join(dir, `${Math.random()}.sqlite`) })],
    ['redis', () => createRedisStore({ url: redis.url, keyPrefix: `console-${Math.random()}:`, log: createLogger({ level: 'error' }) })],
  ];
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, open] of stores) {
    it(`${name}: filters, finds and tells a payment's timeline`, async () => {
      const store = await open();
      const tag = `${name}-${Math.random().toString(36).slice(2, 8)}`;
      const failed = sampleRecord({
        orderId: `${tag}-failed`,
        payment: samplePayment(`${tag}-failed-a2`, { state: 'failed', attempt: 2, phoneNumber: '+2290196123456', updatedAt: now - 5 * minute }),
        timeline: [
          { kind: 'state', at: now - 9 * minute, state: 'pending', attempt: 2 },
          { kind: 'notification', at: now - 5 * minute, status: 'failed', serviceOrderId: `${tag}-failed-a2` },
          { kind: 'state', at: now - 5 * minute, state: 'failed', attempt: 2 },
        ],
        deliveryLog: [{ deliveryId: 'd1', sink: 'webhook', at: now - 4 * minute, ok: false, status: 500, durationMs: 12, error: 'HTTP 500' }],
      });
      const completed = sampleRecord({ orderId: `${tag}-completed`, payment: samplePayment(`${tag}-completed`, { state: 'completed', updatedAt: now - 2 * 60 * minute }) });
      const pending = sampleRecord({ orderId: `${tag}-pending`, payment: samplePayment(`${tag}-pending`, { state: 'pending', updatedAt: now - minute }) });
      for (const record of [failed, completed, pending]) await store.createIfAbsent(record);
      const ours = (rows: Array<{ orderId: string }>) => rows.map((row) => row.orderId).filter((id) => id.startsWith(tag));

      assert.deepEqual(ours(await findPayments(store, {}, now)), [pending.orderId, failed.orderId, completed.orderId], 'newest change first');
      assert.deepEqual(ours(await findPayments(store, { state: 'failed' }, now)), [failed.orderId]);
      assert.deepEqual(ours(await findPayments(store, { state: 'open' }, now)), [pending.orderId]);
      assert.deepEqual(ours(await findPayments(store, { withinHours: 1 }, now)), [pending.orderId, failed.orderId]);
      assert.deepEqual(ours(await findPayments(store, { orderId: failed.orderId }, now)), [failed.orderId]);
      assert.deepEqual(ours(await findPayments(store, { orderId: `${tag}-failed-a2` }, now)), [failed.orderId], 'an attempt\'s id at the service finds its order');

      const detail = paymentDetail((await store.getByOrderId(failed.orderId))!, now);
      assert.equal(detail.phoneNumberMasked.includes('0196123456'), false, 'the number is masked');
      assert.deepEqual(
        detail.timeline.map((item) => item.kind),
        ['state', 'notification', 'state', 'delivery'],
      );
      assert.deepEqual(detail.timeline[3], { kind: 'delivery', at: new Date(now - 4 * minute).toISOString(), deliveryId: 'd1', sink: 'webhook', ok: false, status: 500, durationMs: 12, error: 'HTTP 500' });
      assert.equal(detail.refundable, '0', 'a failed payment has nothing to refund');

      // Issue 32: a checkout with no payment yet, found by its order id, says when it was created and expires.
      const unpaid = sampleRecord({ orderId: `${tag}-unpaid`, payment: null, createdAt: now - 3 * minute, expiresAt: now + 27 * minute });
      await store.createIfAbsent(unpaid);
      assert.deepEqual(await findPayments(store, { orderId: unpaid.orderId }, now), []);
      assert.deepEqual(await findUnpaidCheckout(store, { orderId: unpaid.orderId }), {
        orderId: unpaid.orderId, amount: '5000', currencyCode: 'XOF', createdAt: new Date(now - 3 * minute).toISOString(), expiresAt: new Date(now + 27 * minute).toISOString(),
      });
      assert.equal(await findUnpaidCheckout(store, { orderId: failed.orderId }), undefined, 'a paid order is in the list, not here');
      assert.equal(await findUnpaidCheckout(store, { orderId: `${tag}-nothing` }), undefined);
      await store.close?.();
    });
  }
});
