/**
 * The contract's cases of many changes asked of one payment link at once (issue 55, item 3): a
 * promotion's burst of payers on one reusable link, in one process or two, every change written
 * (stores/link-updates.ts), none refused, and the link's count what its payments say.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimPayment, nextCheckoutOf, settlePayment } from '../../model/link.js';
import { updateLink, type LinkStore } from '../link-store.js';
import type { CheckoutStore } from '../store.js';
import { sampleLink } from './links.js';
import type { MakeStore } from './samples.js';

async function linksOf(makeStore: MakeStore): Promise<{ store: CheckoutStore; links: LinkStore }> {
  const store = await makeStore({ now: () => 1_000_000 });
  assert.ok(store.links, 'the store keeps payment links (CheckoutStore.links)');
  return { store, links: store.links };
}

/** `orderId`'s payment claimed on the link (it must be open to it). */
async function claimed(links: LinkStore, linkId: string, orderId: string): Promise<void> {
  const { changed } = await updateLink(links, linkId, (current) => {
    const outcome = claimPayment(current, orderId, '5000', 1_000_000);
    return 'link' in outcome && outcome.link !== current ? outcome.link : null;
  });
  assert.ok(changed, `${orderId} claimed`);
}

export function runLinkBurstsContract(makeStore: MakeStore): void {
  describe('payment links: many changes at once', () => {
  it('writes 200 changes asked of one link at once, none lost and none refused (a promotion\'s burst)', async () => {
    const { store, links } = await linksOf(makeStore);
    const link = sampleLink({ reusable: true });
    await links.createLinkIfAbsent(link);
    const numbers = await Promise.all(Array.from({ length: 200 }, () => updateLink(links, link.linkId, (current) => nextCheckoutOf(current).link)));
    assert.deepEqual(
      numbers.map((update) => update.link!.checkoutsCreated).sort((a, b) => a - b),
      Array.from({ length: 200 }, (_, index) => index + 1),
      'each caller its own checkout number, as its change left the link',
    );
    const orderIds = Array.from({ length: 200 }, (_, index) => `${link.linkId}-${index + 1}`);
    await Promise.all(orderIds.map((orderId) => claimed(links, link.linkId, orderId)));
    await Promise.all(orderIds.map((orderId, index) => updateLink(links, link.linkId, (current) => settlePayment(current, orderId, index % 4 === 0 ? 'failed' : 'completed', 1_000_001))));
    const after = (await links.getLink(link.linkId))!;
    assert.equal(after.checkoutsCreated, 200);
    assert.equal(after.payments.length, 200, 'every claim kept');
    assert.equal(after.completedPayments, 150, 'every completed payment counted');
    assert.equal(after.completedPayments, after.payments.filter((payment) => payment.state === 'completed').length, 'the count is what its payments say');
    await store.close?.();
  });

  it('writes the changes two processes ask of one link at once, none lost', async () => {
    const { store, links } = await linksOf(makeStore);
    const link = sampleLink({ reusable: true });
    await links.createLinkIfAbsent(link);
    // Two writers of their own over one store, as two processes are: only compare-and-set orders them.
    const writers: LinkStore[] = [{ ...links }, { ...links }];
    const orderIds = Array.from({ length: 120 }, (_, index) => `${link.linkId}-${index + 1}`);
    await Promise.all(orderIds.map((orderId, index) => claimed(writers[index % 2]!, link.linkId, orderId)));
    await Promise.all(orderIds.map((orderId, index) => updateLink(writers[index % 2]!, link.linkId, (current) => settlePayment(current, orderId, 'completed', 1_000_001))));
    const after = (await links.getLink(link.linkId))!;
    assert.equal(after.completedPayments, 120, 'every completed payment counted');
    assert.equal(after.payments.filter((payment) => payment.state === 'completed').length, 120);
    await store.close?.();
  });
  });
}
