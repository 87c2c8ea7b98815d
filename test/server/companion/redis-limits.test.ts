/**
 * The limits kept in Redis against a real redis-server, with an injected clock: the same answers
 * as the memory limits, two backends (two processes) counting against one limit, and a stream
 * slot left by a process that died freed once its lease ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { createMemoryLimits, type Limiter } from '../../../src/server/companion/rate-limit.js';
import type { AnyRedisClient } from '../../../src/server/companion/redis-client.js';
import { createRedisLimits } from '../../../src/server/companion/redis-limits.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';

let server: RedisServer;
let client: AnyRedisClient;
let prefixes = 0;
let clock = 1_000_000;
const now = () => clock;
const newPrefix = () => `limits-${process.pid}-${++prefixes}:`;

before(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url }) as unknown as AnyRedisClient;
  client.on('error', () => {});
  await client.connect();
});

after(async () => {
  if (client?.isOpen) await client.close();
  await server?.stop();
});

const bucket = { burst: 2, perMinute: 60 };

/** Takes `times` times for `key`, the answers in order. */
async function takes(limiter: Limiter, key: string, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i++) answers.push(await limiter.take(key));
  return answers;
}

describe('limits in Redis', () => {
  it('give the memory limiter’s answers: a burst, the seconds to wait, a refill with time', async () => {
    const redis = createRedisLimits(client, newPrefix(), now).limiter('checkout', bucket);
    const memory = createMemoryLimits(now).limiter('checkout', bucket);
    for (const limiter of [redis, memory]) {
      assert.deepEqual(await takes(limiter, 'a', 3), [0, 0, 1]);
      assert.deepEqual(await takes(limiter, 'b', 1), [0], 'keys are independent');
      clock += 1000;
      assert.deepEqual(await takes(limiter, 'a', 2), [0, 1]);
    }
  });

  it('count two processes against one limit: buckets, distinct numbers, stream slots', async () => {
    const prefix = newPrefix();
    const [a, b] = [createRedisLimits(client, prefix, now), createRedisLimits(client, prefix, now)];
    const [limiterA, limiterB] = [a.limiter('checkout', bucket), b.limiter('checkout', bucket)];
    assert.deepEqual([...(await takes(limiterA, 'order-1', 1)), ...(await takes(limiterB, 'order-1', 2))], [0, 0, 1]);

    const until = clock + 60_000;
    const [guardA, guardB] = [a.numberGuard(2), b.numberGuard(2)];
    assert.equal(await guardA.admit('order-1', '+22901960001', until), true);
    assert.equal(await guardB.admit('order-1', '+22901960002', until), true);
    assert.equal(await guardA.admit('order-1', '+22901960003', until), false);
    assert.equal(await guardB.admit('order-1', '+22901960001', until), true, 'a number already used stays usable');

    const [slotsA, slotsB] = [a.streamSlots(2, 10_000), b.streamSlots(2, 10_000)];
    assert.equal(await slotsA.acquire('order-1', 's1'), 0);
    assert.equal(await slotsB.acquire('order-1', 's2'), 0);
    assert.equal(await slotsB.acquire('order-1', 's3'), 2, 'refused, with how many are open');
    await slotsA.release('order-1', 's1');
    assert.equal(await slotsB.acquire('order-1', 's3'), 0);
  });

  it('forget what has expired: a checkout’s numbers after its expiry, a dead process’s slot after its lease', async () => {
    const backend = createRedisLimits(client, newPrefix(), now);
    const guard = backend.numberGuard(1);
    assert.equal(await guard.admit('order-2', '+22901960001', clock + 50), true);
    assert.equal(await guard.admit('order-2', '+22901960002', clock + 50), false);
    // The set's TTL is Redis's own time: wait it out for real.
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(await guard.admit('order-2', '+22901960002', clock + 60_000), true);

    const slots = backend.streamSlots(1, 5_000);
    assert.equal(await slots.acquire('order-2', 'held-by-a-killed-process'), 0);
    assert.equal(await slots.acquire('order-2', 'next'), 1);
    clock += 5_001;
    assert.equal(await slots.acquire('order-2', 'next'), 0);
  });
});
