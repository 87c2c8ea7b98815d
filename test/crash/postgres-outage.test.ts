/**
 * PostgreSQL crashes and comes back while notifications pour in: 200 orders, each notification
 * posted once, and PostgreSQL stopped with `pg_ctl -m immediate` (a crash: no checkpoint, WAL
 * replay at the next start) a third of the way through, started again a second and a half later.
 *
 * Held: every notification the companion answered 2xx is applied, once, and reported (0 lost after a
 * 2xx, 0 applied twice: one transition and one idempotency key per order); the ones answered otherwise (503 while Postgres was down) are applied once when
 * the service sends them again; and the companion serves again with no restart of its own.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { signWebhook } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { createCheckoutIn, freePort, readUpdates, startChild, tempDir, until, type Child } from './support.js';

const noAnswer = '+2290196000003';
const orders = 200;

let sandbox: RunningSandbox;
let postgres: PostgresServer;
let merchant: OpenedStore;
let child: Child;
let updatesFile: string;

before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
  postgres = await startPostgresServer();
  const storeEnv = { MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) };
  updatesFile = join(tempDir('momo-pg-outage-'), 'updates.jsonl');
  child = await startChild({
    ...storeEnv,
    MOMO_BASE_URL: sandbox.url,
    MOMO_API_KEY: sandbox.apiKey,
    MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
    PORT: String(await freePort()),
    CHILD_UPDATES_FILE: updatesFile,
  });
  merchant = await openStoreFromEnv(storeEnv, { log: silentLogger });
});

after(async () => {
  await child?.kill9();
  await merchant?.store.close?.();
  await merchant?.hub?.close();
  await postgres?.stop();
  await sandbox?.close();
});

const pay = async (token: string) => {
  const answer = await fetch(`${child.base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: noAnswer, useWallet: false }),
  });
  return ((await answer.json()) as { state: string }).state;
};

/** Posts the completed notification of `orderId` once: its HTTP status, or 0 when the connection failed. */
const notify = async (orderId: string) => {
  const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, sandbox.webhookSecret);
  try {
    const answer = await fetch(`${child.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(15_000) });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return 0;
  }
};

describe('PostgreSQL crashed and restarted under load', () => {
  it(`${orders} notifications: none lost after a 2xx, none applied twice, the rest applied once re-sent`, async (t) => {
    const orderIds = Array.from({ length: orders }, (_, index) => `pg-outage-${Date.now()}-${index}`);
    for (const orderId of orderIds) {
      const token = await createCheckoutIn(merchant.store, orderId);
      assert.equal(await pay(token), 'pending');
    }

    const statuses = new Map<string, number>();
    let outage: Promise<void> | undefined;
    for (let start = 0; start < orders; start += 10) {
      if (start === 70) {
        // In the middle of the stream, without waiting for it: notifications keep coming.
        outage = (async () => {
          await postgres.halt('immediate');
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          await postgres.restart();
        })();
      }
      const batch = orderIds.slice(start, start + 10);
      const answers = await Promise.all(batch.map(notify));
      batch.forEach((orderId, index) => statuses.set(orderId, answers[index]!));
      // Paced, so the stream goes on through the outage and past the restart.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await outage;
    const acknowledged = orderIds.filter((orderId) => (statuses.get(orderId) ?? 0) >= 200 && statuses.get(orderId)! < 300);
    const refused = orderIds.filter((orderId) => !acknowledged.includes(orderId));
    t.diagnostic(`answered 2xx: ${acknowledged.length}, refused while Postgres was down: ${refused.length} (${[...new Set(refused.map((id) => statuses.get(id)))].join(', ')})`);
    assert.ok(refused.length > 0, 'the outage was felt: some notifications were refused');
    assert.ok(refused.every((orderId) => statuses.get(orderId) === 503 || statuses.get(orderId) === 0), 'refused with 503, never a 2xx that is then lost');

    // The service sends again what was not acknowledged (a relay, or the service's own retry).
    assert.equal(child.process.exitCode ?? child.process.signalCode, null, `the companion is still running:\n${child.stderr()}`);
    await until('Postgres to take writes again', async () => (await notify(refused[0]!)) === 200, 20_000);
    for (const orderId of refused.slice(1)) assert.equal(await notify(orderId), 200, `${orderId} is taken once Postgres is back`);

    const completed = () => readUpdates(updatesFile).filter((line) => line.ok && line.state === 'completed');
    await until('every order to be reported completed', () => new Set(completed().map((line) => line.orderId)).size === orders, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const reported = completed().map((line) => line.orderId);
    const lost = acknowledged.filter((orderId) => !reported.includes(orderId));
    // One transition per order: every report of an order's completion carries one idempotency key.
    // (A report made just before the crash, whose 'delivered' mark the crash then refused, is made
    // again with the same key: onPaymentUpdate is at least once, and the key is what a shop dedups on.)
    const keys = new Map<string, Set<string>>();
    for (const line of completed()) keys.set(line.orderId, (keys.get(line.orderId) ?? new Set()).add(line.key));
    const double = [...keys].filter(([, set]) => set.size > 1).map(([orderId]) => orderId);
    assert.deepEqual({ lost, double }, { lost: [], double: [] });
    t.diagnostic(`reports made again with the same key (at least once across the crash): ${reported.length - orders}`);
    for (const orderId of orderIds) assert.equal((await merchant.store.getByOrderId(orderId))?.payment?.state, 'completed', orderId);
    assert.deepEqual(await merchant.store.pendingInbox(10), [], 'every kept notification was applied');
  });
});
