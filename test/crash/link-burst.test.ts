/**
 * A burst on one reusable payment link (issue 55, item 3): a promotion sent to a customer list, 200
 * payers opening the link's page and pressing Pay at once, over two companion processes on one
 * store (PostgreSQL, then the file store). Every payer gets either a pay-in or a true sentence
 * (never `500`, never "the payment service cannot be reached" while it answers every call), no
 * payer is counted twice or lost, and the link's `completedPayments` ends equal to the completed
 * payments its list shows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { linkActions } from '../../src/server/links/link-actions.js';
import { sampleLink } from '../../src/server/stores/store-contract/links.js';
import { startSharedFileStore, startSharedPostgres } from '../support/shared-stores.js';
import { startTwoOnOneStore, until, type TwoOnOneStore } from './support.js';

const payerCount = 200;
/** Valid Benin mobile numbers on the sandbox's push operator, none a scripted test number: approved. */
const payers = Array.from({ length: payerCount }, (_, i) => `+229019600${String(1000 + i)}`);

const stores = { PostgreSQL: startSharedPostgres, 'file store': startSharedFileStore };

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

const tally = (answers: Answer[]) => answers.reduce<Record<number, number>>((counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }), {});

for (const [name, start] of Object.entries(stores)) {
  describe(`a burst of ${payerCount} payers on one reusable link, two processes on one ${name}`, () => {
    const elementDir = mkdtempSync(join(tmpdir(), 'momo-burst-element-'));
    let two: TwoOnOneStore;
    before(async () => {
      writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
      writeFileSync(join(elementDir, 'momo-checkout-test.js'), '/* the element */');
      two = await startTwoOnOneStore(start, { MOMO_ELEMENT_ASSETS_DIR: elementDir });
    });
    after(async () => {
      await two?.stop();
      rmSync(elementDir, { recursive: true, force: true });
    });

    it('gives every payer a pay-in or a true sentence with Retry-After, and counts exactly the completed payments its list shows', async () => {
      const link = sampleLink({ reusable: true, createdAt: Date.now(), retainUntil: Date.now() + 3_600_000 });
      await two.merchant.store.links!.createLinkIfAbsent(link);
      const childOf = (index: number) => two.children[index % 2]!;

      // The link's page, its button pressed by every payer at once (the form post creates their checkout).
      const opened = await Promise.all(
        payers.map(async (_, index) => {
          const child = childOf(index);
          const response = await fetch(`${child.base}/l/${link.linkId}`, { method: 'POST', headers: { origin: new URL(child.base).origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
          const text = await response.text();
          const token = /<momo-checkout [^>]*token="([^"]+)"/.exec(text)?.[1];
          return { status: response.status, retryAfter: response.headers.get('retry-after'), text, token };
        }),
      );
      // Then every payer who got a checkout presses Pay at once.
      const paid = await Promise.all(
        opened.map(async (form, index): Promise<Answer> => {
          if (!form.token) return { status: 0, retryAfter: null, text: '' };
          const response = await fetch(`${childOf(index).base}/checkout/pay`, {
            method: 'POST',
            headers: { authorization: `Bearer ${form.token}`, origin: 'http://shop.test', 'content-type': 'application/json' },
            body: JSON.stringify({ phoneNumber: payers[index], useWallet: false }),
          });
          return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
        }),
      );
      const pays = paid.filter((answer) => answer.status !== 0);
      const figures = `form posts ${JSON.stringify(tally(opened))}, pays ${JSON.stringify(tally(pays))}`;
      console.log(`${name}: ${figures}`);

      for (const form of opened.filter((answer) => answer.status !== 200)) {
        assert.equal(form.status, 503, `a form post is a checkout or "try again" (${figures}): ${form.text.slice(0, 300)}`);
        assert.ok(form.retryAfter, 'with Retry-After');
        assert.match(form.text, /<html/, 'a page in the payer\'s language, not the JSON of the element\'s routes');
      }
      for (const answer of pays.filter((each) => each.status !== 200)) {
        assert.equal(answer.status, 503, `a pay is a pay-in or "try again" (${figures}): ${answer.text}`);
        assert.ok(answer.retryAfter, 'with Retry-After');
        assert.doesNotMatch(answer.text, /payment service/, 'the service answered every call: a refusal never blames it');
        assert.match(answer.text, /nothing was sent to your phone/);
      }
      const payIns = () => two.sandbox.control.transactions().filter((transaction) => transaction.orderId.startsWith(`${link.linkId}-`));
      assert.equal(payIns().length, pays.filter((answer) => answer.status === 200).length, 'one pay-in for each pay answered 200, none for a payer told to try again');
      assert.equal(new Set(payIns().map((transaction) => transaction.orderId)).size, payIns().length, 'one pay-in per order id');

      // Every pay-in completes (the sandbox approves them): the count must reach the list and stay there.
      const actions = linkActions({ store: two.merchant.store, now: Date.now, base: 'http://shop.test/momo', discovery: { currencyFacts: async () => ({}) as never }, defaultReturnUrl: null });
      const completedListed = async () => (await actions.getLink(link.linkId)).payments.filter((payment) => payment.state === 'completed').length;
      await until('every pay-in to complete in the store', async () => (await completedListed()) === payIns().length, 30_000);
      let view = await actions.getLink(link.linkId);
      await until(
        `the link's count to reach its list (${payIns().length} completed)`,
        async () => (view = await actions.getLink(link.linkId)).completedPayments === payIns().length,
        10_000,
      ).catch(() => undefined);
      console.log(`${name}: completedPayments ${view.completedPayments}, completed in its list ${await completedListed()}, pay-ins ${payIns().length}`);
      assert.equal(view.completedPayments, await completedListed(), 'completedPayments is what the payments list says');
      const record = await two.merchant.store.links!.getLink(link.linkId);
      assert.equal(record!.checkoutsCreated, opened.filter((form) => form.token).length, 'one checkout number per payer given a checkout, none lost');
    });
  });
}
