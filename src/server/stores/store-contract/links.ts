/**
 * The contract's cases of payment links (part of `momo-checkout/store-contract`, link-store.ts):
 * a link is created once, read back as written, changed only by compare-and-set (two payers racing
 * on a single-use link: one claim wins; an order's own claim kept through the link's close), listed
 * newest first a page at a time from an index, and forgotten at its `retainUntil` (a link made
 * again under its id starts a new life, whose order ids are not the earlier one's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimPayment, closeLink, linkOrderId, nextCheckoutOf, settlePayment, type LinkRecord } from '../../model/link.js';
import { randomId } from '../../tokens.js';
import { updateLink, type LinkStore } from '../link-store.js';
import type { CheckoutStore } from '../store.js';
import type { MakeStore } from './samples.js';

/** A link as the companion writes it, with a fresh id. */
export function sampleLink(overrides: Partial<LinkRecord> = {}): LinkRecord {
  return {
    linkId: randomId(16),
    createdAt: 1_000,
    currencyCode: 'XOF',
    description: 'Pagne wax, 6 yards',
    amount: '5000',
    minAmount: null,
    maxAmount: null,
    reusable: false,
    maxPayments: null,
    expiresAt: 4_000_000_000_000,
    returnUrl: null,
    closedAt: null,
    completedPayments: 0,
    checkoutsCreated: 0,
    payments: [],
    revision: 0,
    // Ahead of both clocks a store may keep, the injected one and, for a realClock store, the real one.
    retainUntil: Date.now() + 24 * 60 * 60_000,
    ...overrides,
  };
}

async function linksOf(makeStore: MakeStore, now: () => number): Promise<{ store: CheckoutStore; links: LinkStore }> {
  const store = await makeStore({ now });
  assert.ok(store.links, 'the store keeps payment links (CheckoutStore.links)');
  return { store, links: store.links };
}

async function readAllLinks(links: LinkStore, limit: number, keep: (link: LinkRecord) => boolean): Promise<string[]> {
  const read: string[] = [];
  let before: { createdAt: number; linkId: string } | undefined;
  for (let pages = 0; pages < 1_000; pages++) {
    const page = await links.listLinks({ limit, ...(before ? { before } : {}) });
    assert.ok(page.length <= limit, `a page holds at most its limit (${page.length} > ${limit})`);
    if (page.length === 0) return read;
    read.push(...page.filter(keep).map((link) => link.linkId));
    const last = page[page.length - 1]!;
    before = { createdAt: last.createdAt, linkId: last.linkId };
  }
  throw new Error('the pages never ended: a cursor that does not move on');
}

export function runLinksContract(makeStore: MakeStore, options: { realClock?: boolean }): void {
  describe('payment links', () => {
    it('creates a link once and reads it back as written', async () => {
      const { store, links } = await linksOf(makeStore, () => 1_000_000);
      const link = sampleLink({ amount: null, minAmount: '1000', maxAmount: '25000.5', description: 'Tissu — 6 yards, "wax" ✓', reusable: true, maxPayments: 3 });
      assert.deepEqual(await links.createLinkIfAbsent(link), { created: true, link });
      assert.deepEqual(await links.getLink(link.linkId), link, 'every field, amounts as decimal strings');
      const again = await links.createLinkIfAbsent({ ...link, description: 'another' });
      assert.deepEqual(again, { created: false, link }, 'the stored link, unchanged');
      assert.equal(await links.getLink('no-such-link'), undefined);
      await store.close?.();
    });

    it('changes a link only at the revision it was read at', async () => {
      const { store, links } = await linksOf(makeStore, () => 1_000_000);
      const link = sampleLink();
      await links.createLinkIfAbsent(link);
      assert.equal(await links.compareAndSetLink(link.linkId, 1, { ...link, revision: 2, closedAt: 5 }), false, 'a stale revision');
      assert.equal(await links.compareAndSetLink(link.linkId, 0, { ...link, revision: 1, closedAt: 5 }), true);
      assert.equal((await links.getLink(link.linkId))?.closedAt, 5);
      assert.equal(await links.compareAndSetLink('no-such-link', 0, { ...link, linkId: 'no-such-link', revision: 1 }), false, 'no link, no write');
      await store.close?.();
    });

    it('lets one of two racing payers claim a single-use link, and frees it when that payment fails', async () => {
      const { store, links } = await linksOf(makeStore, () => 1_000_000);
      const link = sampleLink();
      await links.createLinkIfAbsent(link);
      const claim = (orderId: string) =>
        updateLink(links, link.linkId, (current) => {
          const outcome = claimPayment(current, orderId, '5000', 1_000_000);
          return 'link' in outcome && outcome.link !== current ? outcome.link : null;
        });
      await Promise.all(Array.from({ length: 8 }, (_, index) => claim(`${link.linkId}-${index + 1}`)));
      const claimed = (await links.getLink(link.linkId))!.payments;
      assert.equal(claimed.length, 1, `one claim wins the race, got ${JSON.stringify(claimed)}`);
      await updateLink(links, link.linkId, (current) => settlePayment(current, claimed[0]!.orderId, 'failed', 1_000_001));
      await claim(`${link.linkId}-9`);
      const after = await links.getLink(link.linkId);
      assert.deepEqual(after?.payments.map((payment) => [payment.orderId, payment.state]), [[claimed[0]!.orderId, 'failed'], [`${link.linkId}-9`, 'claimed']]);
      await store.close?.();
    });

    it("keeps an order's claim through its link's close: the re-post of a pay-in already sent is not refused", async () => {
      const { store, links } = await linksOf(makeStore, () => 1_000_000);
      const link = sampleLink();
      await links.createLinkIfAbsent(link);
      const orderId = linkOrderId(link, 1);
      const claim = async () => {
        let refusal: string | null = null;
        const { link: after } = await updateLink(links, link.linkId, (current) => {
          const outcome = claimPayment(current, orderId, '5000', 1_000_000);
          refusal = 'refusal' in outcome ? outcome.refusal : null;
          return 'link' in outcome && outcome.link !== current ? outcome.link : null;
        });
        return { refusal, after };
      };
      assert.equal((await claim()).refusal, null, 'claimed before its pay-in');
      await updateLink(links, link.linkId, (current) => closeLink(current, 1_000_000));
      const again = await claim();
      assert.equal(again.refusal, null, 'its own claim is kept after the close');
      assert.deepEqual(again.after?.payments.map((payment) => [payment.orderId, payment.state]), [[orderId, 'claimed']]);
      assert.equal(again.after?.closedAt, 1_000_000, 'the link stays closed');
      await store.close?.();
    });

    it("gives a link made again under a forgotten link's id a new life: its checkouts' order ids are not the earlier one's", async () => {
      const clock = { at: options.realClock ? Date.now() : 1_000_000 };
      const now = () => (options.realClock ? Date.now() : clock.at);
      const { store, links } = await linksOf(makeStore, now);
      // A real-clock store (Redis) forgets by its own TTL: a short one, then a wait.
      const earlier = sampleLink({ createdAt: now(), retainUntil: now() + 300 });
      await links.createLinkIfAbsent(earlier);
      const take = async () => {
        const { link } = await updateLink(links, earlier.linkId, (current) => nextCheckoutOf(current).link);
        return linkOrderId(link!, link!.checkoutsCreated);
      };
      const earlierOrders = [await take(), await take()];
      if (options.realClock) {
        for (let tries = 0; (await links.getLink(earlier.linkId)) !== undefined; tries++) {
          assert.ok(tries < 100, 'forgotten at its retainUntil');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } else clock.at += 301;
      const again = sampleLink({ linkId: earlier.linkId, createdAt: now(), description: 'made again' });
      assert.equal((await links.createLinkIfAbsent(again)).created, true);
      const stored = await links.getLink(earlier.linkId);
      assert.deepEqual([stored?.createdAt, stored?.checkoutsCreated, stored?.payments], [again.createdAt, 0, []], 'the new life, nothing of the earlier one');
      const orders = [await take(), await take()];
      assert.deepEqual(orders.filter((orderId) => earlierOrders.includes(orderId)), [], `new order ids: ${orders.join(', ')} after ${earlierOrders.join(', ')}`);
      await store.close?.();
    });

    it('lists links newest first, a page at a time, each once, across ties of one millisecond', async () => {
      const { store, links } = await linksOf(makeStore, () => 1_000_000);
      const tag = randomId(6);
      const base = 5_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
      const times = [base, base + 7, base + 7, base + 7, base + 3, base + 900, base + 7];
      const made = times.map((createdAt) => sampleLink({ createdAt, description: tag }));
      for (const link of made) await links.createLinkIfAbsent(link);
      const expected = [...made].sort((a, b) => b.createdAt - a.createdAt || (a.linkId < b.linkId ? 1 : -1)).map((link) => link.linkId);
      const ours = (link: LinkRecord) => link.description === tag;
      assert.deepEqual(await readAllLinks(links, 2, ours), expected, 'newest first, (createdAt, linkId) descending, none twice, none skipped');
      assert.deepEqual(await readAllLinks(links, 50, ours), expected, 'the same whatever the page size');
      await store.close?.();
    });

    if (!options.realClock) {
      it('forgets a link at its retainUntil', async () => {
        const clock = { at: 1_000_000 };
        const { store, links } = await linksOf(makeStore, () => clock.at);
        const link = sampleLink({ retainUntil: clock.at + 60_000, description: `forgotten-${randomId(6)}` });
        await links.createLinkIfAbsent(link);
        clock.at += 59_999;
        assert.ok(await links.getLink(link.linkId));
        clock.at += 2;
        assert.equal(await links.getLink(link.linkId), undefined);
        assert.equal((await links.listLinks({ limit: 1_000 })).some((found) => found.linkId === link.linkId), false, 'not listed either');
        assert.equal((await links.createLinkIfAbsent({ ...link, description: 'new life' })).created, true, 'its id is free again');
        await store.close?.();
      });
    }
  });
}
