/**
 * Issue 40 §6: the payer's routes have the server API's store deadline. With PostgreSQL frozen
 * (SIGSTOP to the postmaster and its backends: connections open, nothing answers) or stopped, the
 * page's routes answer `503 SERVICE_UNAVAILABLE` with `Retry-After` within the deadline (4 s), and
 * the outage is logged once, not once per request. In 0.4.0 they answered after 10 s or never when
 * frozen, and `500 INTERNAL` with an error line per request when stopped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../../src/server/commands/standalone-companion.js';
import { createLogger } from '../../../../src/server/log.js';
import { openStoreFromEnv } from '../../../../src/server/stores/store-from-env.js';
import { freePort } from '../../../support/free-port.js';
import { payerPage, pendingNumber } from '../../../support/payer-page.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { sandboxEnv } from '../../../support/sandbox-env.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';
/** The default `storeTimeoutMs`, and what an answer may take beyond it on a loaded machine. */
const deadlineMs = 4_000;
const marginMs = 1_500;

let sandbox: RunningSandbox;
let postgres: PostgresServer;
let service: RunningStandaloneCompanion;
let token: string;
let base: string;
const lines: Array<{ level: string; msg: string }> = [];

before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
  postgres = await startPostgresServer();
  const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: secret, MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) };
  const log = createLogger({ level: 'warn', sink: (line) => lines.push(JSON.parse(line) as { level: string; msg: string }) });
  service = await startStandaloneCompanion({ env, log, store: await openStoreFromEnv(env, { log }) });
  base = `${service.url}/momo`;
  const page = payerPage({ base, serverSecret: secret, webhookSecret: sandbox.webhookSecret });
  token = await page.checkout(`deadline-${Date.now()}`);
  assert.equal(await page.pay(token), 'pending');
});

after(async () => {
  await service?.close();
  await postgres?.stop();
  await sandbox?.close();
});

/** Each route of the page, as the element calls it. */
const routes: Array<[string, () => Promise<Response>]> = [
  ['GET /checkout/status', () => call('/checkout/status')],
  ['GET /checkout/events', () => call('/checkout/events')],
  ['POST /checkout/pay', () => call('/checkout/pay', { phoneNumber: pendingNumber, useWallet: false })],
  ['POST /checkout/lookup', () => call('/checkout/lookup', { phoneNumber: pendingNumber })],
  ['GET /checkout', () => call('/checkout')],
];
const call = (path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, origin: new URL(base).origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(deadlineMs + marginMs),
  });

/** Every route, twice: each must answer 503 with Retry-After within the deadline. */
async function expectUnavailable(): Promise<number> {
  let slowest = 0;
  for (let round = 0; round < 2; round++) {
    await Promise.all(
      routes.map(async ([name, request]) => {
        const started = Date.now();
        const answer = await request().catch((error: unknown) => {
          throw new Error(`${name}: no answer within ${deadlineMs + marginMs} ms (${error instanceof Error ? error.message : String(error)})`);
        });
        const elapsed = Date.now() - started;
        slowest = Math.max(slowest, elapsed);
        const body = (await answer.json()) as { error?: { code: string; message: string } };
        assert.equal(answer.status, 503, `${name}: ${answer.status} ${JSON.stringify(body)}`);
        assert.equal(body.error?.code, 'SERVICE_UNAVAILABLE', name);
        assert.equal(answer.headers.get('retry-after'), '5', name);
        assert.ok(elapsed < deadlineMs + marginMs, `${name} answered in ${elapsed} ms`);
      }),
    );
  }
  return slowest;
}

async function expectServing(): Promise<void> {
  const end = Date.now() + 20_000;
  for (;;) {
    const answer = await call('/checkout/status').catch(() => undefined);
    if (answer?.status === 200) return;
    if (Date.now() > end) throw new Error(`the status route did not serve again within 20 s (${answer?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Log lines at warn and above since `from`, but the delivery worker's, which says each of its polls
 * that failed (every few seconds, whatever the requests): what the requests caused.
 */
function linesSince(from: number) {
  return lines
    .slice(from)
    .map((line) => `${line.level}: ${line.msg}`)
    .filter((line) => !line.includes('could not read due payment updates'));
}

/** No line per request: the store's deadline says the outage once. */
function assertSaidOnce(logged: string[], atMost: number) {
  assert.ok(!logged.some((line) => /route failed|service call failed/.test(line)), `no line per request: ${logged.join('; ')}`);
  assert.equal(logged.filter((line) => line.includes('store unavailable')).length, 1, `the outage is said once: ${logged.join('; ')}`);
  assert.ok(logged.length <= atMost, `no more than ${atMost} lines for ${routes.length * 2} requests: ${logged.join('; ')}`);
}

describe('the payer routes while PostgreSQL is unusable', () => {
  it('frozen (SIGSTOP): 503 with Retry-After within the deadline, the outage logged once', async (t) => {
    const from = lines.length;
    postgres.freeze();
    let slowest: number;
    try {
      slowest = await expectUnavailable();
    } finally {
      postgres.thaw();
    }
    t.diagnostic(`frozen: ${routes.length * 2} requests, the slowest answered 503 in ${slowest} ms (deadline ${deadlineMs} ms); log lines: ${JSON.stringify(linesSince(from))}`);
    assertSaidOnce(linesSince(from), 1);
    await expectServing();
  });

  it('stopped (pg_ctl stop -m fast): 503 with Retry-After within the deadline, the outage logged once', async (t) => {
    const from = lines.length;
    await postgres.halt('fast');
    let slowest: number;
    try {
      slowest = await expectUnavailable();
    } finally {
      await postgres.restart();
    }
    const logged = linesSince(from);
    t.diagnostic(`stopped: ${routes.length * 2} requests, the slowest answered 503 in ${slowest} ms; log lines: ${JSON.stringify(logged)}`);
    // Besides, the store's pool says "connection lost" and the hub "listener lost", once each.
    assertSaidOnce(logged, 3);
    await expectServing();
  });
});
