/**
 * `momo-checkout serve` on PostgreSQL (MOMO_POSTGRES_URL) while the server is stopped and started
 * again: `/readyz` says not ready and why, the server API answers `503 STORE_UNAVAILABLE` with
 * `Retry-After` in time (never a 500), and both recover once PostgreSQL is back, with no restart of
 * the companion; what was written before the outage is still there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../../src/server/commands/standalone-companion.js';
import { silentLogger } from '../../../../src/server/log.js';
import { freePort } from '../../../support/free-port.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { sandboxEnv } from '../../../support/sandbox-env.js';
import { until } from '../../../crash/support.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';

let sandbox: RunningSandbox;
let postgres: PostgresServer;
let service: RunningStandaloneCompanion;

before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
  postgres = await startPostgresServer();
  const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: secret, MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) };
  service = await startStandaloneCompanion({ env, log: silentLogger });
});

after(async () => {
  await service?.close();
  await postgres?.stop();
  await sandbox?.close();
});

const api = (path: string, body?: unknown) =>
  fetch(`${service.url}/momo/server${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const readiness = async () => {
  const answer = await fetch(`${service.url}/readyz`);
  return { status: answer.status, body: (await answer.json()) as { ready: boolean; reason?: string } };
};

describe('serve on PostgreSQL: down and back', () => {
  it('503 STORE_UNAVAILABLE and not ready while PostgreSQL is down; ready and answering once it is back', async () => {
    await until('ready', async () => (await readiness()).status === 200);
    const orderId = `pg-down-${Date.now()}`;
    assert.equal((await api('/checkouts', { orderId, amount: '5000', currencyCode: 'XOF' })).status, 200);

    await postgres.halt('fast');
    const notReady = await readiness();
    assert.equal(notReady.status, 503);
    assert.match(notReady.body.reason ?? '', /^store unreachable \(PostgreSQL at 127\.0\.0\.1:\d+\/\w+ \(schema momo_checkout\)\)/);
    for (const call of [() => api(`/payments/${orderId}`), () => api('/checkouts', { orderId: `${orderId}-2`, amount: '5000', currencyCode: 'XOF' })]) {
      const started = Date.now();
      const answer = await call();
      const body = (await answer.json()) as { error: { code: string; message: string } };
      assert.equal(answer.status, 503, JSON.stringify(body));
      assert.equal(body.error.code, 'STORE_UNAVAILABLE');
      assert.equal(answer.headers.get('retry-after'), '5');
      assert.doesNotMatch(body.error.message, /password|postgres:\/\//, 'no connection string in the answer');
      assert.ok(Date.now() - started < 6_000, `answered in ${Date.now() - started} ms`);
    }

    await postgres.restart();
    await until('ready again', async () => (await readiness()).status === 200, 20_000);
    const payment = await api(`/payments/${orderId}`);
    assert.equal(payment.status, 200, 'the checkout written before the outage is still there');
    assert.equal((await api('/checkouts', { orderId: `${orderId}-2`, amount: '5000', currencyCode: 'XOF' })).status, 200);
  });
});
