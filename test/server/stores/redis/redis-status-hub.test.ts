/**
 * The Redis status hub against a real redis-server: a view published by one process (hub A)
 * reaches a status stream's listener in another (hub B); unsubscribing stops it, and the process
 * holds one Redis subscription per order it streams, dropped when its last stream closes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import type { PaymentView } from '../../../../src/contract/companion.js';
import { createRedisStatusHub, type RedisStatusHub } from '../../../../src/server/index.js';
import type { AnyRedisClient } from '../../../../src/server/stores/redis/redis-client.js';
import { createLogger } from '../../../../src/server/log.js';
import { samplePaymentView as view } from '../../../../src/server/stores/store-contract.js';
import { startRedisServer, type RedisServer } from '../../../support/redis-server.js';

let server: RedisServer;
let probe: AnyRedisClient;
let a: RedisStatusHub;
let b: RedisStatusHub;
const quiet = createLogger({ sink: () => {} });

before(async () => {
  server = await startRedisServer();
  probe = createClient({ url: server.url }) as unknown as AnyRedisClient;
  probe.on('error', () => {});
  await probe.connect();
  a = await createRedisStatusHub({ url: server.url, log: quiet });
  b = await createRedisStatusHub({ url: server.url, log: quiet });
});

after(async () => {
  await a?.close();
  await b?.close();
  if (probe?.isOpen) await probe.close();
  await server?.stop();
});


async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const subscribers = async (orderId: string) => {
  const reply = (await probe.sendCommand(['PUBSUB', 'NUMSUB', `momo:status:${orderId}`])) as [string, number];
  return Number(reply[1]);
};

describe('redis status hub', () => {
  it('delivers a view published on hub A to a listener on hub B, and to A’s own listeners, only for that order', async () => {
    const onB: PaymentView[] = [];
    const onA: PaymentView[] = [];
    const otherOrder: PaymentView[] = [];
    const stopB = b.subscribe('order-1', (seen) => onB.push(seen));
    const stopA = a.subscribe('order-1', (seen) => onA.push(seen));
    const stopOther = b.subscribe('order-2', (seen) => otherOrder.push(seen));
    await Promise.all([a.ready(), b.ready()]);
    a.publish('order-1', view('order-1', 1));
    a.publish('order-1', view('order-1', 2));
    await until(() => onB.length === 2 && onA.length === 2, 'both views on both hubs');
    assert.deepEqual(onB, [view('order-1', 1), view('order-1', 2)], 'whole views, in publication order');
    assert.deepEqual(onA, onB);
    assert.deepEqual(otherOrder, []);
    stopA();
    stopB();
    stopOther();
    await Promise.all([a.ready(), b.ready()]);
  });

  it('stops delivering once unsubscribed, and drops the Redis subscription with the last local listener', async () => {
    const first: PaymentView[] = [];
    const second: PaymentView[] = [];
    const stopFirst = b.subscribe('order-3', (seen) => first.push(seen));
    const stopSecond = b.subscribe('order-3', (seen) => second.push(seen));
    assert.equal(b.size(), 2, 'local subscriptions are counted');
    await b.ready();
    assert.equal(await subscribers('order-3'), 1, 'one Redis subscription for two local listeners');

    stopFirst();
    stopFirst(); // twice is harmless
    assert.equal(b.size(), 1);
    await b.ready();
    assert.equal(await subscribers('order-3'), 1, 'still subscribed: a listener is left');
    a.publish('order-3', view('order-3', 1));
    await until(() => second.length === 1, 'the remaining listener gets the view');
    assert.deepEqual(first, [], 'the unsubscribed listener got nothing');

    stopSecond();
    assert.equal(b.size(), 0);
    await b.ready();
    assert.equal(await subscribers('order-3'), 0, 'unsubscribed from Redis with the last listener');

    // A barrier: a later view on another order that B still listens to arrives after any stray one.
    const barrier: PaymentView[] = [];
    const stopBarrier = b.subscribe('order-4', (seen) => barrier.push(seen));
    await b.ready();
    a.publish('order-3', view('order-3', 2));
    a.publish('order-4', view('order-4', 1));
    await until(() => barrier.length === 1, 'the barrier view');
    assert.deepEqual(second, [view('order-3', 1)], 'nothing after unsubscribing');
    stopBarrier();
    await b.ready();
  });

  it('subscribes again after every listener of an order left', async () => {
    const seen: PaymentView[] = [];
    b.subscribe('order-5', () => {})();
    const stop = b.subscribe('order-5', (view) => seen.push(view));
    await b.ready();
    assert.equal(await subscribers('order-5'), 1);
    a.publish('order-5', view('order-5', 1));
    await until(() => seen.length === 1, 'the view after resubscribing');
    stop();
    await b.ready();
  });

  it('keeps other listeners going when one throws', async () => {
    const seen: PaymentView[] = [];
    const stopThrowing = b.subscribe('order-6', () => {
      throw new Error('a broken stream');
    });
    const stop = b.subscribe('order-6', (view) => seen.push(view));
    await b.ready();
    a.publish('order-6', view('order-6', 1));
    await until(() => seen.length === 1, 'the view despite the throwing listener');
    stopThrowing();
    stop();
    await b.ready();
  });

  it('leaves a given client open when closed', async () => {
    const hub = await createRedisStatusHub({ client: probe, log: quiet, keyPrefix: 'other:' });
    const seen: PaymentView[] = [];
    hub.subscribe('order-7', (view) => seen.push(view));
    await hub.ready();
    await probe.publish('other:status:order-7', JSON.stringify(view('order-7', 1)));
    await until(() => seen.length === 1, 'a view on the prefixed channel');
    await hub.close();
    assert.equal(await probe.ping(), 'PONG');
  });
});
