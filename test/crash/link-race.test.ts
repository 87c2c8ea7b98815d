/**
 * A single-use payment link paid at most once across processes (issue 44): two companion processes
 * on one shared store, PostgreSQL and then Redis, ten payers of one link racing their pays over
 * both. The claim is one atomic write of the link before any pay-in: exactly one pay-in reaches the
 * service, and every other payer is told LINK_USED, with nothing sent to their phone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutRecord } from '../../src/server/payments/checkouts.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { sampleLink } from '../../src/server/stores/store-contract/links.js';
import { sharedStores, type SharedStoreServer } from '../support/shared-stores.js';
import { freePort, startChild, until, type Child } from './support.js';

const shop = 'http://shop.test';
/** Valid Benin mobile numbers on the sandbox's push operator, none a scripted test number: approved. */
const payers = Array.from({ length: 10 }, (_, i) => `+22901960002${String(10 + i)}`);

for (const [name, start] of Object.entries(sharedStores)) {
  describe(`a single-use payment link on one ${name}, two processes`, () => {
    let sandbox: RunningSandbox;
    let backend: SharedStoreServer;
    let merchant: OpenedStore;
    let children: Child[] = [];

    before(async () => {
      sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
      backend = await start();
      const storeEnv = backend.freshEnv();
      const ports = [await freePort(), await freePort()];
      const env = { MOMO_BASE_URL: sandbox.url, MOMO_API_KEY: sandbox.apiKey, MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret, ...storeEnv };
      children = await Promise.all(ports.map((port) => startChild({ ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}/momo` })));
      merchant = await openStoreFromEnv(storeEnv);
    });
    after(async () => {
      await Promise.all(children.map((child) => child.kill9()));
      await merchant?.store.close?.();
      await merchant?.hub?.close();
      await backend?.stop();
      await sandbox?.close();
    });

    it('ten payers racing over both processes: one pay-in, nine LINK_USED, none of them prompted', async () => {
      const link = sampleLink({ retainUntil: Date.now() + 3_600_000 });
      await merchant.store.links!.createLinkIfAbsent(link);
      // Each payer's checkout, as the link's page creates it (links/link-payments.ts).
      const tokens = await Promise.all(
        payers.map(async (_, index) => {
          const created = await createCheckoutRecord(
            merchant.store,
            { orderId: `${link.linkId}-${index + 1}`, amount: '5000', currencyCode: 'XOF' },
            { ttlMs: 30 * 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null, linkId: link.linkId },
          );
          return created.token;
        }),
      );
      const answers = await Promise.all(
        payers.map(async (phoneNumber, index) => {
          const child = children[index % 2]!;
          const response = await fetch(`${child.base}/checkout/pay`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[index]}`, origin: shop, 'content-type': 'application/json' },
            body: JSON.stringify({ phoneNumber, useWallet: false }),
          });
          return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
        }),
      );
      const accepted = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.body.error?.code === 'LINK_USED');
      assert.equal(accepted.length, 1, `one payer's pay accepted: ${JSON.stringify(answers)}`);
      assert.equal(refused.length, 9, 'every other payer told the link was just used');
      const payIns = sandbox.control.transactions().filter((transaction) => transaction.orderId.startsWith(`${link.linkId}-`));
      assert.equal(payIns.length, 1, 'exactly one pay-in reached the service: no other phone was prompted');
      await until('the link to close', async () => (await merchant.store.links!.getLink(link.linkId))?.completedPayments === 1);
      const closed = await merchant.store.links!.getLink(link.linkId);
      assert.ok(closed?.closedAt, 'closed by its completed payment');
    });
  });
}
