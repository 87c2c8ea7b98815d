/**
 * The status hub on LISTEN/NOTIFY against a real PostgreSQL: two hubs on one database (as two
 * processes) hear each other's views for the orders they hold streams for, and none of another
 * schema's; after PostgreSQL restarts, the listening connection comes back by itself and says so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentView } from '../../../../src/contract/companion.js';
import { createPostgresStatusHub } from '../../../../src/server/stores/postgres/postgres-status-hub.js';
import { silentLogger } from '../../../../src/server/log.js';
import { samplePaymentView } from '../../../../src/server/stores/store-contract.js';
import { usePostgresDatabase } from '../../../support/postgres-server.js';

const postgres = usePostgresDatabase();

/** The next view `hub` hands to a listener of `orderId`, or a timeout. */
const nextView = (hub: Awaited<ReturnType<typeof createPostgresStatusHub>>, orderId: string, ms = 5_000) =>
  new Promise<PaymentView>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no view for ${orderId} within ${ms} ms`)), ms);
    const unsubscribe = hub.subscribe(orderId, (view) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(view);
    });
  });

describe('postgres status hub', () => {
  it('a view published by one process reaches the stream another holds, and only that order’s', async () => {
    const [a, b] = await Promise.all([createPostgresStatusHub({ url: postgres.url, log: silentLogger }), createPostgresStatusHub({ url: postgres.url, log: silentLogger })]);
    const other = await createPostgresStatusHub({ url: postgres.url, schema: 'another_shop', log: silentLogger });
    try {
      const heard: string[] = [];
      const unsubscribe = b.subscribe('order-elsewhere', () => heard.push('elsewhere'));
      const onB = nextView(b, 'order-1');
      const onA = nextView(a, 'order-1');
      other.publish('order-1', samplePaymentView('order-1', 99));
      a.publish('order-1', samplePaymentView('order-1', 2));
      assert.equal((await onB).version, 2);
      assert.equal((await onA).version, 2, 'the publishing process hears it too, in the same order');
      assert.deepEqual(heard, []);
      unsubscribe();
      assert.equal(b.size(), 0);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });

  it('listens again by itself once PostgreSQL is back after a restart', async () => {
    const [a, b] = await Promise.all([createPostgresStatusHub({ url: postgres.url, log: silentLogger }), createPostgresStatusHub({ url: postgres.url, log: silentLogger })]);
    try {
      // The streams read their payment again when the hub says it listens again (issue 40 §3).
      assert.equal(typeof b.onRestored, 'function', 'the hub says when it listens again');
      const restored = new Promise<void>((resolve) => b.onRestored?.(resolve));
      await postgres.server.halt('fast');
      await postgres.server.restart();
      await Promise.race([restored, new Promise((_, reject) => setTimeout(() => reject(new Error('no restore within 15 s')), 15_000))]);
      const deadline = Date.now() + 15_000;
      let version = 10;
      for (;;) {
        await b.ready();
        const heard = nextView(b, 'order-2', 500).catch(() => undefined);
        a.publish('order-2', samplePaymentView('order-2', ++version));
        const view = await heard;
        if (view) {
          assert.equal(view.version, version);
          break;
        }
        assert.ok(Date.now() < deadline, 'the hub listens again within 15 s');
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
