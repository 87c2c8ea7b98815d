/**
 * Issue 40 §4: one process of the companion holds at most its documented budget of PostgreSQL
 * connections, `MOMO_POSTGRES_POOL_SIZE` + 1 (the store's pool and the status hub's one listening
 * connection, which also sends its NOTIFYs: docs/durability.md). In 0.4.0 the hub opened a pool of
 * its own for NOTIFY: 21 connections under a burst of 30 payments with a pool of 10, and under a
 * role limited to the budget every NOTIFY failed and no open stream heard its completion.
 *
 * Here the role's `CONNECTION LIMIT` is that budget (a pool of 4, plus 1): a burst of 30 payments
 * with their streams open, every stream hears its completion, no NOTIFY fails, no connection is
 * refused, and the role never holds more than the budget.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../../src/server/commands/standalone-companion.js';
import { createLogger } from '../../../../src/server/log.js';
import { openStoreFromEnv } from '../../../../src/server/stores/store-from-env.js';
import { freePort } from '../../../support/free-port.js';
import { payerPage, type PayerPage } from '../../../support/payer-page.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { sandboxEnv } from '../../../support/sandbox-env.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';
const poolSize = 4;
const budget = poolSize + 1;
const payments = 30;

let sandbox: RunningSandbox;
let postgres: PostgresServer;
let service: RunningStandaloneCompanion;
let page: PayerPage;
const warnings: string[] = [];

before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
  postgres = await startPostgresServer();
  postgres.psql(`CREATE ROLE momo_budget LOGIN CONNECTION LIMIT ${budget}`);
  const database = createDatabase(postgres);
  postgres.psql(`ALTER DATABASE ${database} OWNER TO momo_budget`);
  const env = {
    ...sandboxEnv(sandbox, await freePort()),
    MOMO_SERVER_SECRET: secret,
    MOMO_POSTGRES_URL: postgres.urlOf(database, 'momo_budget'),
    MOMO_POSTGRES_POOL_SIZE: String(poolSize),
  };
  const log = createLogger({ level: 'warn', sink: (line) => warnings.push(line) });
  service = await startStandaloneCompanion({ env, log, store: await openStoreFromEnv(env, { log }) });
  page = payerPage({ base: `${service.url}/momo`, serverSecret: secret, webhookSecret: sandbox.webhookSecret });
});

after(async () => {
  await service?.close();
  await postgres?.stop();
  await sandbox?.close();
});

describe(`PostgreSQL connection budget (pool of ${poolSize} + 1, the role's CONNECTION LIMIT)`, () => {
  it(`a burst of ${payments} payments with their streams open: every stream hears its completion, within the budget`, async (t) => {
    const orders = await Promise.all(
      Array.from({ length: payments }, async (_, index) => {
        const orderId = `budget-${index}-${Date.now()}`;
        const token = await page.checkout(orderId);
        assert.equal(await page.pay(token), 'pending');
        return { orderId, stream: await page.watch(token) };
      }),
    );
    // The role's connections, counted by the superuser (outside the budget) every 20 ms.
    const observer = new pg.Client({ connectionString: postgres.url });
    await observer.connect();
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const result = await observer.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = 'momo_budget'`);
        most = Math.max(most, result.rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const started = Date.now();
      await Promise.all(orders.map(({ orderId }) => page.complete(orderId)));
      // Under the streams' re-read interval (5 s): heard through NOTIFY, not rescued by a re-read.
      await Promise.all(orders.map(({ stream }) => stream.until('completed', 4_000)));
      t.diagnostic(`${payments} streams heard their completion ${Date.now() - started} ms after the burst began; the role held at most ${most} connections (budget ${budget})`);
    } finally {
      sampling = false;
      await sampler;
      await observer.end();
      for (const { stream } of orders) stream.close();
    }
    assert.ok(most <= budget, `at most ${budget} connections (held ${most})`);
    assert.deepEqual(warnings.filter((line) => /notify|too many connections|connection lost/i.test(line)), [], 'no NOTIFY failed, no connection was refused');
  });
});
