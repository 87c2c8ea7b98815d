/**
 * A single-use payment link paid at most once across processes (issue 44): two companion processes
 * on one shared store (PostgreSQL, Redis, then the file store of one host), ten payers of one link
 * racing their pays over both. The claim is one atomic write of the link before any pay-in:
 * exactly one pay-in reaches the service, and every other payer is told LINK_USED, with nothing
 * sent to their phone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCheckoutRecord } from '../../src/server/payments/checkouts.js';
import { sampleLink } from '../../src/server/stores/store-contract/links.js';
import { sharedStores, startSharedFileStore } from '../support/shared-stores.js';
import { startTwoOnOneStore, until, type TwoOnOneStore } from './support.js';

const shop = 'http://shop.test';
/** Valid Benin mobile numbers on the sandbox's push operator, none a scripted test number: approved. */
const payers = Array.from({ length: 10 }, (_, i) => `+22901960002${String(10 + i)}`);

for (const [name, start] of Object.entries({ ...sharedStores, 'file store': startSharedFileStore })) {
  describe(`a single-use payment link on one ${name}, two processes`, () => {
    let two: TwoOnOneStore;
    before(async () => {
      two = await startTwoOnOneStore(start);
    });
    after(() => two?.stop());

    it('ten payers racing over both processes: one pay-in, nine LINK_USED, none of them prompted', async () => {
      const link = sampleLink({ retainUntil: Date.now() + 3_600_000 });
      await two.merchant.store.links!.createLinkIfAbsent(link);
      // Each payer's checkout, as the link's page creates it (links/link-payments.ts).
      const tokens = await Promise.all(
        payers.map(async (_, index) => {
          const created = await createCheckoutRecord(
            two.merchant.store,
            { orderId: `${link.linkId}-${index + 1}`, amount: '5000', currencyCode: 'XOF' },
            { ttlMs: 30 * 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null, linkId: link.linkId },
          );
          return created.token;
        }),
      );
      const answers = await Promise.all(
        payers.map(async (phoneNumber, index) => {
          const child = two.children[index % 2]!;
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
      const payIns = two.sandbox.control.transactions().filter((transaction) => transaction.orderId.startsWith(`${link.linkId}-`));
      assert.equal(payIns.length, 1, 'exactly one pay-in reached the service: no other phone was prompted');
      await until('the link to close', async () => (await two.merchant.store.links!.getLink(link.linkId))?.completedPayments === 1);
      const closed = await two.merchant.store.links!.getLink(link.linkId);
      assert.ok(closed?.closedAt, 'closed by its completed payment');
    });
  });
}
