/**
 * Two processes race for one order id at the service (issue 26): the merchant's server creates
 * order "X-a2" while a companion process sends order X's second attempt. On one file store, on
 * one Redis and on one PostgreSQL database, whichever comes first holds the id, and the other moves on: the attempt goes out as
 * "X-a3", or the new order is refused with the reason. Never both under one id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutRecord } from '../../src/server/payments/checkouts.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { CheckoutError } from '../../src/server/index.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { createCheckoutIn, freePort, startChild, tempDir, until, type Child } from './support.js';

const decline = '+2290196000002';
const noAnswer = '+2290196000003';
const rounds = 8;

let sandbox: RunningSandbox;
let redis: RedisServer;
let postgres: PostgresServer;
before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 10, log: () => {} });
  redis = await startRedisServer();
  postgres = await startPostgresServer();
});
after(async () => {
  await redis?.stop();
  await postgres?.stop();
  await sandbox?.close();
});

const pay = async (child: Child, token: string, phoneNumber: string) => {
  const answer = await fetch(`${child.base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber, useWallet: false }),
  });
  return ((await answer.json()) as { state: string }).state;
};

function race(storeName: string, storeEnv: () => Record<string, string>) {
  describe(`order id races between two processes on one ${storeName}`, () => {
    let child: Child;
    let merchant: OpenedStore;
    before(async () => {
      const env = storeEnv();
      const port = await freePort();
      child = await startChild({
        ...env,
        MOMO_BASE_URL: sandbox.url,
        MOMO_API_KEY: sandbox.apiKey,
        MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
        PORT: String(port),
        CHILD_UPDATES_FILE: `${tempDir('momo-race-')}/updates.jsonl`,
      });
      merchant = await openStoreFromEnv(env);
    });
    after(async () => {
      await child?.kill9();
      await merchant?.store.close?.();
      await merchant?.hub?.close();
    });

    it('the merchant\'s new order "X-a2" and X\'s second attempt: one holds the id, the other moves on', async (t) => {
      const seen = { attemptSkipped: 0, orderRefused: 0 };
      for (let round = 0; round < rounds; round++) {
        const x = `race-${storeName.replace(/\W/g, '-')}-${Date.now()}-${round}`;
        const token = await createCheckoutIn(merchant.store, x);
        // Declined 10 ms after the sandbox accepts it: on a loaded machine the decline can be
        // applied before the pay route answers, which then answers the state it has reached.
        assert.match(await pay(child, token, decline), /^(pending|failed)$/);
        await until('the first attempt to fail', async () => (await merchant.store.getByOrderId(x))?.payment?.state === 'failed');

        // The merchant's side starts a little later each round, so each side wins some.
        const created = new Promise((resolve) => setTimeout(resolve, round * 3)).then(() =>
          createCheckoutRecord(merchant.store, { orderId: `${x}-a2`, amount: '5000', currencyCode: 'XOF' }, { ttlMs: 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null }),
        );
        const [creation, state] = await Promise.allSettled([created, pay(child, token, noAnswer)]);
        assert.deepEqual(state, { status: 'fulfilled', value: 'pending' }, `round ${round}: the second attempt is sent`);
        const attemptId = (await merchant.store.getByOrderId(x))?.payment?.serviceOrderId;
        if (creation.status === 'fulfilled') {
          seen.attemptSkipped += 1;
          assert.equal(attemptId, `${x}-a3`, `round ${round}: the order came first, the attempt skips its id`);
          assert.equal(sandbox.control.transaction(`${x}-a2`), undefined);
          assert.equal((await merchant.store.getByOrderId(`${x}-a2`))?.orderId, `${x}-a2`);
        } else {
          seen.orderRefused += 1;
          const error = creation.reason as unknown;
          assert.ok(error instanceof CheckoutError && error.code === 'ORDER_ID_TAKEN', `round ${round}: refused as taken, not ${String(error)}`);
          assert.equal(attemptId, `${x}-a2`, `round ${round}: the attempt came first and keeps its id`);
          assert.equal(await merchant.store.getByOrderId(`${x}-a2`), undefined);
        }
        assert.equal(sandbox.control.transaction(attemptId!)?.phoneNumber, noAnswer);
        assert.equal((await merchant.store.getByServiceOrderId(attemptId!))?.orderId, x, 'a notification for the attempt finds X');
      }
      t.diagnostic(`attempt skipped ${seen.attemptSkipped}, new order refused ${seen.orderRefused}`);
    });
  });
}

race('file store', () => ({ MOMO_DATA_DIR: tempDir('momo-race-file-') }));
race('Redis', () => ({ MOMO_REDIS_URL: redis.url }));
race('PostgreSQL', () => ({ MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) }));
