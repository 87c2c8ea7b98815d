/**
 * A payer whose payment link could not be claimed because other processes kept writing it (issue
 * 55, item 3; stores/link-updates.ts `LinkBusyError`): told the truth, that nothing was sent to
 * their phone and to press Pay again, with `Retry-After`; never that the payment service cannot be
 * reached (it answered every call), and no pay-in is posted. Pressing again once the link is quiet
 * sends the one pay-in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCheckoutRecord } from '../../../src/server/payments/checkouts.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';
import { sampleLink } from '../../../src/server/stores/store-contract/links.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { startHarness, type Harness } from '../harness.js';

/** A memory store whose link writes lose to "another process" while `otherWriters` is set. */
function storeWithBusyLinks(): { store: CheckoutStore; busy: { otherWriters: boolean } } {
  const store = createMemoryStore();
  const links = store.links!;
  const busy = { otherWriters: false };
  const compareAndSetLink: typeof links.compareAndSetLink = async (linkId, expected, next) => {
    if (!busy.otherWriters) return links.compareAndSetLink(linkId, expected, next);
    // Another process's write lands between this read and this write, every time.
    const current = (await links.getLink(linkId))!;
    await links.compareAndSetLink(linkId, current.revision, { ...current, revision: current.revision + 1 });
    return links.compareAndSetLink(linkId, expected, next);
  };
  return { store: { ...store, links: { ...links, compareAndSetLink } }, busy };
}

describe('a payment link too busy to claim', () => {
  let h: Harness;
  const { store, busy } = storeWithBusyLinks();
  before(async () => {
    h = await startHarness({ store });
  });
  after(() => h.close());

  it('answers 503 with Retry-After and "nothing was sent", posts no pay-in, and pays once pressed again', async () => {
    const link = sampleLink({ reusable: true, createdAt: Date.now(), retainUntil: Date.now() + 3_600_000 });
    await store.links!.createLinkIfAbsent(link);
    const { token } = await createCheckoutRecord(
      store,
      { orderId: `${link.linkId}-1`, amount: '5000', currencyCode: 'XOF' },
      { ttlMs: 30 * 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null, linkId: link.linkId },
    );
    busy.otherWriters = true;
    const response = await h.call('/checkout/pay', { token, body: { phoneNumber: '+2290196000001' } });
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(response.status, 503, JSON.stringify(body));
    assert.ok(Number(response.headers.get('retry-after')) > 0, 'says when to press again');
    assert.equal(body.error.code, 'SERVICE_UNAVAILABLE', 'the element\'s code for "try again"');
    assert.match(body.error.message, /nothing was sent to your phone/);
    assert.doesNotMatch(body.error.message, /payment service/, 'the service was never called, let alone unreachable');
    assert.equal(h.sandbox.control.transactions().length, 0, 'no pay-in posted');

    busy.otherWriters = false;
    const again = await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000001' } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(h.sandbox.control.transactions().length, 1, 'one pay-in, under the same order id');
  });
});
