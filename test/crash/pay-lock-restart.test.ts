/**
 * Issue 45: `kill -9` of the companion while a pay is under way (looking up the payer's operator,
 * or posting the pay-in), then a restart on the same store. The dead process's pay lock must not
 * turn the payer away for a minute: the same pay, re-posted as the page does, is accepted within
 * seconds of the restart, and the service gets one pay-in. On the file store, Redis and PostgreSQL,
 * each started for real; the companion is a child process killed with SIGKILL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { silentLogger } from '../../src/server/log.js';
import { startSharedPostgres, startSharedRedis, type SharedStoreServer } from '../support/shared-stores.js';
import { createCheckoutIn, freePort, startChild, tempDir, until, type Child } from './support.js';

const noAnswer = '+2290196000003';
const shop = 'http://shop.test';
/** Issue 45's bound: the pay is accepted within this of the restart. */
const acceptedWithinMs = 10_000;

const fileStore = async (): Promise<SharedStoreServer> => ({ name: 'the file store', freshEnv: () => ({ MOMO_DATA_DIR: tempDir('momo-pay-lock-') }), stop: async () => {} });
const stores = { 'the file store': fileStore, Redis: startSharedRedis, PostgreSQL: startSharedPostgres };

/** Where the killed process is when it dies: a request to the service that never answers. */
const momentsOfDeath = {
  'while it looks up the payer’s operator': '/v1/corridors/available',
  'while it posts the pay-in': '/v1/pay-in',
};

const pay = (base: string, token: string) =>
  fetch(`${base}/checkout/pay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shop, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: noAnswer, useWallet: false }),
  });

let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: (line) => sandboxLog.push(line) });
});
after(async () => {
  await sandbox?.close();
});

for (const [storeName, start] of Object.entries(stores)) describe(`kill -9 mid-pay, then a restart, on ${storeName}`, () => {
  let backend: SharedStoreServer;
  let merchant: OpenedStore;
  let storeEnv: Record<string, string>;
  before(async () => {
    backend = await start();
    storeEnv = backend.freshEnv();
    merchant = await openStoreFromEnv(storeEnv, { log: silentLogger });
    await merchant.hub?.close();
  });
  after(async () => {
    await merchant?.store.close?.();
    await backend?.stop();
  });

  for (const [moment, path] of Object.entries(momentsOfDeath)) {
    it(`${moment}: the same pay is accepted within ${acceptedWithinMs / 1000} s of the restart, one pay-in`, async () => {
      const orderId = `pay-lock-${path.split('/').at(-1)}-${Date.now()}`;
      const token = await createCheckoutIn(merchant.store, orderId);
      const env = { MOMO_BASE_URL: sandbox.url, MOMO_API_KEY: sandbox.apiKey, MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret, ...storeEnv, PORT: String(await freePort()) };
      let child: Child = await startChild(env);
      try {
        const mark = sandboxLog.length;
        sandbox.control.injectFault({ kind: 'hang', path });
        // The payer presses Pay; the process dies while its call to the service is under way.
        const first = pay(child.base, token).catch(() => null);
        await until(`the pay to reach ${path}`, () => sandboxLog.slice(mark).some((line) => line.includes(`injected fault hang on`) && line.includes(path)));
        await child.kill9();
        assert.equal(await first, null, 'the payer’s first request died with the process');
        const killedAt = performance.now();

        child = await startChild(env);
        const restartedAt = performance.now();
        // The page tries again, as the element does, until the pay is accepted.
        const answers: string[] = [];
        let accepted: { state: string } | null = null;
        while (!accepted && performance.now() - restartedAt < 20_000) {
          const answer = await pay(child.base, token);
          const body = (await answer.json()) as { state?: string; error?: { code: string } };
          answers.push(answer.status === 200 ? body.state! : `${answer.status} ${body.error?.code}`);
          if (answer.status === 200 && body.state === 'pending') accepted = { state: body.state };
          else await new Promise((resolve) => setTimeout(resolve, 500));
        }
        const restartToAccepted = Math.round(performance.now() - restartedAt);
        console.log(`${storeName}, ${moment}: pay accepted ${restartToAccepted} ms after the restart (${Math.round(performance.now() - killedAt)} ms after the kill); answers meanwhile: ${[...new Set(answers)].join(', ')}`);
        assert.ok(accepted, `the pay was never accepted after the restart (answers: ${[...new Set(answers)].join(', ')})`);
        assert.ok(restartToAccepted <= acceptedWithinMs, `accepted ${restartToAccepted} ms after the restart`);
        const payIns = sandbox.control.transactions().filter((entry) => entry.kind === 'payin' && entry.orderId.startsWith(orderId));
        assert.equal(payIns.length, 1, 'one pay-in at the service');
        assert.equal((await merchant.store.getByOrderId(orderId))?.payment?.state, 'pending');
      } finally {
        await child.kill9();
      }
    });
  }
});
