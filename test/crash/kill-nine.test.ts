/**
 * Crash tests with real processes and `kill -9`: the service sends each notification once, so a
 * payer's outcome must survive the companion dying at any point. The companion runs in a child
 * process on a durable store: the default (a file under MOMO_DATA_DIR), and PostgreSQL (a database
 * of its own per case); the sandbox runs here.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openStoreFromEnv } from '../../src/server/stores/store-from-env.js';
import type { CheckoutStore } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { createCheckoutIn, freePort, readUpdates, startChild, streamUntil, tempDir, until, type Child } from './support.js';

const noAnswer = '+2290196000003';
const shop = 'http://shop.test';

let sandbox: RunningSandbox;
let postgres: PostgresServer;
before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
  postgres = await startPostgresServer();
});
after(async () => {
  await sandbox.close();
  await postgres?.stop();
});

const stores = {
  'the file store': (dataDir: string) => ({ MOMO_DATA_DIR: dataDir }),
  PostgreSQL: () => ({ MOMO_POSTGRES_URL: postgres.urlOf(createDatabase(postgres)) }),
};

async function setup(storeEnv: (dataDir: string) => Record<string, string>) {
  const dataDir = tempDir('momo-crash-');
  const store = storeEnv(dataDir);
  const port = await freePort();
  const updatesFile = join(dataDir, 'updates.jsonl');
  const env = {
    MOMO_BASE_URL: sandbox.url,
    MOMO_API_KEY: sandbox.apiKey,
    MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
    ...store,
    PORT: String(port),
    CHILD_UPDATES_FILE: updatesFile,
  };
  // The merchant's server process: creates checkouts in the same store.
  const merchant = await openStoreFromEnv(store, { log: silentLogger });
  // The merchant's process needs no status stream: the hub (Postgres opens one) is closed at once.
  await merchant.hub?.close();
  return { env, updatesFile, dataDir, merchantStore: merchant.store as CheckoutStore };
}

async function pay(base: string, token: string) {
  const response = await fetch(`${base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shop, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: noAnswer, useWallet: false }),
  });
  return (await response.json()) as { state: string };
}

for (const [storeName, storeEnv] of Object.entries(stores)) describe(`kill -9 of the companion on ${storeName}`, () => {
  it('(a) pay-in accepted, companion killed and restarted, then the notification: the page and onPaymentUpdate get the outcome', async () => {
    const { env, updatesFile, merchantStore } = await setup(storeEnv);
    const orderId = `crash-a-${Date.now()}`;
    const token = await createCheckoutIn(merchantStore, orderId);
    let child: Child = await startChild(env);
    try {
      assert.equal((await pay(child.base, token)).state, 'pending');
      await child.kill9();
      child = await startChild(env);
      const seen = streamUntil(child.base, token, (view) => view.state === 'completed');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sandbox.control.settle(orderId, 'completed');
      assert.equal((await seen).state, 'completed', 'the page heard it');
      await until('onPaymentUpdate for completed', () => readUpdates(updatesFile).some((line) => line.ok && line.orderId === orderId && line.state === 'completed'));
      assert.equal(readUpdates(updatesFile).filter((line) => line.ok && line.state === 'completed').length, 1);
    } finally {
      await child.kill9();
      await merchantStore.close?.();
    }
  });

  it('(b) notification kept, companion killed before applying it: applied once after the restart', async () => {
    const { env, updatesFile, merchantStore } = await setup(storeEnv);
    const orderId = `crash-b-${Date.now()}`;
    const token = await createCheckoutIn(merchantStore, orderId);
    let child: Child = await startChild({ ...env, CHILD_KILL_WHILE_APPLYING: '1' });
    try {
      assert.equal((await pay(child.base, token)).state, 'pending');
      await sandbox.control.settle(orderId, 'completed');
      const delivery = sandbox.control.deliveries().filter((item) => item.orderId === orderId).at(-1);
      assert.equal(delivery?.httpStatus, 200, 'the service was told the notification arrived');
      await child.exited;
      assert.equal((await merchantStore.getByOrderId(orderId))?.payment?.state, 'pending', 'died before applying it');
      child = await startChild(env);
      await until('the payment to be completed', async () => (await merchantStore.getByOrderId(orderId))?.payment?.state === 'completed');
      await until('onPaymentUpdate for completed', () => readUpdates(updatesFile).some((line) => line.ok && line.orderId === orderId && line.state === 'completed'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(readUpdates(updatesFile).filter((line) => line.state === 'completed').length, 1, 'applied and reported once');
      assert.deepEqual(await merchantStore.pendingInbox(10), []);
    } finally {
      await child.kill9();
      await merchantStore.close?.();
    }
  });

  it('(c) onPaymentUpdate throws three times, across a kill: called again until it succeeds, one success per transition', async () => {
    const { env, updatesFile, merchantStore, dataDir } = await setup(storeEnv);
    const throwFile = join(dataDir, 'throws');
    const orderId = `crash-c-${Date.now()}`;
    const token = await createCheckoutIn(merchantStore, orderId);
    let child: Child = await startChild({ ...env, CHILD_THROW_FILE: throwFile });
    try {
      assert.equal((await pay(child.base, token)).state, 'pending');
      await until('pending to be reported', () => readUpdates(updatesFile).some((line) => line.ok && line.state === 'pending'));
      writeFileSync(throwFile, '3');
      await sandbox.control.settle(orderId, 'completed');
      await until('a first failed call', () => readUpdates(updatesFile).some((line) => !line.ok));
      await child.kill9();
      child = await startChild({ ...env, CHILD_THROW_FILE: throwFile });
      await until('the completed update to succeed', () => readUpdates(updatesFile).some((line) => line.ok && line.state === 'completed'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const completed = readUpdates(updatesFile).filter((line) => line.state === 'completed');
      assert.deepEqual(completed.map((line) => line.ok), [false, false, false, true]);
      assert.equal(new Set(completed.map((line) => line.key)).size, 1, 'one idempotency key for the transition');
      assert.deepEqual(readUpdates(updatesFile).filter((line) => line.ok).map((line) => line.state), ['pending', 'completed']);
    } finally {
      await child.kill9();
      await merchantStore.close?.();
    }
  });
});
