/**
 * Issue 40 §3: status streams held open across a PostgreSQL restart hear the completions that came
 * while the hub's listening connection was being re-opened. NOTIFY reaches only the sessions
 * listening at that moment; in 0.4.0 an open stream read the store only when it opened, so payments
 * completed 0, 0.5 and 1 s after `pg_ctl start` left every stream on `pending` for its 5 minutes.
 * Now a stream reads its payment again when the hub listens again, and every few seconds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../../src/server/commands/standalone-companion.js';
import { silentLogger } from '../../../../src/server/log.js';
import { openStoreFromEnv } from '../../../../src/server/stores/store-from-env.js';
import { freePort } from '../../../support/free-port.js';
import { payerPage, type PayerPage } from '../../../support/payer-page.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { sandboxEnv } from '../../../support/sandbox-env.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';
/** Well under the stream's 5-minute life, and above the re-read interval plus the reconnection's back-off. */
const heardWithinMs = 15_000;

let sandbox: RunningSandbox;
let postgres: PostgresServer;
let service: RunningStandaloneCompanion;
let page: PayerPage;

before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
  postgres = await startPostgresServer();
  const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: secret, MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) };
  service = await startStandaloneCompanion({ env, log: silentLogger, store: await openStoreFromEnv(env, { log: silentLogger }) });
  page = payerPage({ base: `${service.url}/momo`, serverSecret: secret, webhookSecret: sandbox.webhookSecret });
});

after(async () => {
  await service?.close();
  await postgres?.stop();
  await sandbox?.close();
});

for (const mode of ['fast', 'immediate'] as const) {
  describe(`status streams across a PostgreSQL restart (pg_ctl stop -m ${mode})`, () => {
    it('every open stream hears the completions made 0, 0.5 and 1 s after the server is back', async () => {
      const delays = [0, 500, 1_000];
      const orders = await Promise.all(
        delays.map(async (delay) => {
          const orderId = `pg-restart-${mode}-${delay}-${Date.now()}`;
          const token = await page.checkout(orderId);
          assert.equal(await page.pay(token), 'pending');
          // Two tabs of the same payer: each stream must hear it.
          return { orderId, delay, streams: [await page.watch(token), await page.watch(token)] };
        }),
      );
      try {
        await postgres.halt(mode);
        // Down long enough for the listener's back-off to reach its cap (2 s between tries): the
        // completions below then come before it listens again, as after a real restart.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await postgres.restart();
        const restartedAt = Date.now();
        await Promise.all(
          orders.map(async ({ orderId, delay }) => {
            await new Promise((resolve) => setTimeout(resolve, delay));
            await page.complete(orderId);
          }),
        );
        await Promise.all(orders.flatMap(({ streams }) => streams.map((stream) => stream.until('completed', heardWithinMs))));
        console.log(`# pg_ctl -m ${mode}: every stream heard its completion ${Date.now() - restartedAt} ms after pg_ctl start`);
        for (const { streams } of orders) for (const stream of streams) assert.deepEqual(stream.states, ['pending', 'completed'], 'nothing went back, nothing twice');
      } finally {
        for (const { streams } of orders) for (const stream of streams) stream.close();
      }
    });
  });
}
