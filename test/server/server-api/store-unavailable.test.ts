/**
 * The server API when its store cannot be read or written: `503 STORE_UNAVAILABLE` with
 * `Retry-After`, in time, so that a backend tells "retry later" from a bug (a 500). Real outages:
 * a stopped Redis, and an SQLite file whose write lock another process holds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedisStore, type CheckoutStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { lockableFileStore } from '../../support/locked-file-store.js';
import { startRedisServer } from '../../support/redis-server.js';
import { newOrderId, startHarness } from '../harness.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';

/** Calls the server API of a companion on `store` while `outage` holds, and gives each answer with its time. */
async function answersDuring(store: CheckoutStore, outage: () => Promise<() => void>) {
  const h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, store });
  const orderId = newOrderId();
  const api = (path: string, body?: unknown) =>
    fetch(`${h.base}/server${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  try {
    assert.equal((await api('/checkouts', { orderId, amount: '5000', currencyCode: 'XOF' })).status, 200, 'before the outage');
    const end = await outage();
    try {
      const answers = [];
      for (const call of [() => api(`/payments/${orderId}`), () => api('/checkouts', { orderId: newOrderId(), amount: '5000', currencyCode: 'XOF' }), () => api('/payments?state=stale')]) {
        const started = Date.now();
        const response = await call();
        answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any, ms: Date.now() - started });
      }
      return answers;
    } finally {
      end();
    }
  } finally {
    await h.close();
  }
}

function assertUnavailable(answers: Awaited<ReturnType<typeof answersDuring>>, withinMs: number) {
  for (const answer of answers) {
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'STORE_UNAVAILABLE');
    assert.match(answer.body.error.message, /Retry in a few seconds/);
    assert.equal(answer.retryAfter, '5');
    assert.ok(answer.ms < withinMs, `answered in ${answer.ms} ms`);
  }
}

describe('server API: store unavailable', () => {
  it('Redis stopped: 503 STORE_UNAVAILABLE with Retry-After, within the store deadline (4 s)', async () => {
    const redis = await startRedisServer();
    const store = await createRedisStore({ url: redis.url, log: silentLogger });
    try {
      const answers = await answersDuring(store, async () => {
        await redis.stop();
        return () => {};
      });
      assertUnavailable(answers, 4_900);
    } finally {
      await store.close?.();
      await redis.stop();
    }
  });

  it('SQLite locked by another process: 503 STORE_UNAVAILABLE once its busy wait (5 s) is over, never a 500', async () => {
    const file = lockableFileStore();
    try {
      const answers = await answersDuring(file.store, async () => {
        file.lock();
        return file.unlock;
      });
      // Reads are not blocked by a writer (WAL): only the creation waits, then is refused.
      assert.equal(answers[0]!.status, 200);
      assertUnavailable([answers[1]!], 7_000);
      assert.equal(answers[2]!.status, 200);
    } finally {
      await file.close();
    }
  });
});
