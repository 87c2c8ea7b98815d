/**
 * Issue 40 §3: status streams held open across a PostgreSQL restart hear the completions that came
 * while the hub's listening connection was being re-opened. NOTIFY reaches only the sessions
 * listening at that moment; in 0.4.0 an open stream read the store only when it opened, so payments
 * completed 0, 0.5 and 1 s after `pg_ctl start` left every stream on `pending` for its 5 minutes.
 * Now a stream reads its payment again when the hub listens again, and every few seconds.
 */
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../../src/server/commands/standalone-companion.js';
import { silentLogger } from '../../../../src/server/log.js';
import { openStoreFromEnv } from '../../../../src/server/stores/store-from-env.js';
import { freePort } from '../../../support/free-port.js';
import { payerPage, streamsHearCompletionsAfter, type PayerPage } from '../../../support/payer-page.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { sandboxEnv } from '../../../support/sandbox-env.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';

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
    it('every open stream hears the completions made 0, 0.5 and 1 s after the server is back', async (t) => {
      const heardAfterMs = await streamsHearCompletionsAfter(page, `pg-restart-${mode}`, async () => {
        await postgres.halt(mode);
        // Down long enough for the listener's back-off to reach its cap (2 s between tries): the
        // completions then come before it listens again, as after a real restart.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await postgres.restart();
      });
      t.diagnostic(`pg_ctl -m ${mode}: the last stream heard its completion ${heardAfterMs} ms after pg_ctl start (the last completion was made at 1,000 ms)`);
    });
  });
}
