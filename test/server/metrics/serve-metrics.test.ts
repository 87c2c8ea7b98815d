/**
 * `momo-checkout serve` serves `/metrics` too (startStandaloneCompanion, the command's server): behind
 * `MOMO_METRICS_TOKEN` read from the environment, or the server secret every serve has; 401 otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../src/server/commands/standalone-companion.js';
import { freePort } from '../../support/free-port.js';
import { sandboxEnv } from '../../support/sandbox-env.js';
import { metricsToken, scrape } from './scrape.js';

const serverSecret = 'serve-metrics-server-secret-0123456789abcdef';

describe('serve: /metrics', () => {
  let sandbox: RunningSandbox;
  let service: RunningStandaloneCompanion;
  let base: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
    const port = await freePort();
    const env: Record<string, string> = { ...sandboxEnv(sandbox, port), MOMO_SERVER_SECRET: serverSecret, MOMO_METRICS_TOKEN: metricsToken, MOMO_STORE: 'memory' };
    service = await startStandaloneCompanion({ env, log: silentLogger });
    base = env.MOMO_PUBLIC_URL!;
  });
  after(async () => {
    await service.close();
    await sandbox.close();
  });

  it('answers the metrics token and the server secret, and 401 to anything else', async () => {
    const withToken = await scrape(base, metricsToken);
    assert.equal(withToken.value('momo_payments_open'), 0);
    assert.equal(withToken.value('momo_store_read_ok'), 1);
    assert.equal((await scrape(base, serverSecret)).value('momo_notifications_received_total', { result: 'applied' }), 0);
    const refused = await fetch(`${base}/metrics`);
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /Bearer/);
  });

  it('refuses a MOMO_METRICS_TOKEN shorter than 32 characters, naming it', async () => {
    const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: serverSecret, MOMO_METRICS_TOKEN: 'short', MOMO_STORE: 'memory' };
    await assert.rejects(startStandaloneCompanion({ env, log: silentLogger }), /MOMO_METRICS_TOKEN is shorter than 32 characters/);
  });
});
