/**
 * A payment link's rules (model/link.ts): only an open link takes a claim; a single-use link is
 * held by one claim at a time, freed by its failure and closed by its completion; a reusable one
 * counts completed payments toward its cap and is held only when the claims in flight could reach it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimPayment, closeLink, linkStanding, nextCheckoutOf, settlePayment, type LinkRecord } from '../../../src/server/model/link.js';
import { sampleLink } from '../../../src/server/stores/store-contract/links.js';

const at = 2_000;
function claimed(link: LinkRecord, orderId: string): LinkRecord {
  const outcome = claimPayment(link, orderId, '5000', at);
  assert.ok('link' in outcome, `claimed by ${orderId}, got ${JSON.stringify(outcome)}`);
  return outcome.link;
}

describe('payment link rules', () => {
  it('a single-use link: one claim holds it, a failure frees it, a completion closes it', () => {
    const link = sampleLink();
    const first = claimed(link, 'L-1');
    assert.deepEqual(claimPayment(first, 'L-2', '5000', at), { refusal: 'in-use' }, 'a second payer is refused while the first pays');
    assert.ok('link' in claimPayment(first, 'L-1', '5000', at + 1), 'the same checkout claims again (a re-post)');
    const freed = settlePayment(first, 'L-1', 'failed', at)!;
    const second = claimed(freed, 'L-2');
    const paid = settlePayment(second, 'L-2', 'completed', at + 5)!;
    assert.equal(paid.completedPayments, 1);
    assert.equal(paid.closedAt, at + 5, 'closed by its completed payment');
    assert.equal(linkStanding(paid, at + 6), 'used-up');
    assert.deepEqual(claimPayment(paid, 'L-3', '5000', at + 6), { refusal: 'used-up' });
    assert.equal(settlePayment(paid, 'L-2', 'completed', at + 7), null, 'a notification applied twice changes nothing');
    assert.equal(settlePayment(paid, 'L-2', 'failed', at + 7), null, 'nor does a late failure after its completion');
  });

  it('a reusable link with a cap: claims in flight up to the cap, completions counted, used up at the cap', () => {
    let link = sampleLink({ reusable: true, maxPayments: 2, amount: null, minAmount: '100', maxAmount: '900' });
    link = claimed(link, 'L-1');
    link = claimed(link, 'L-2');
    assert.deepEqual(claimPayment(link, 'L-3', '500', at), { refusal: 'in-use' }, 'two in flight could reach the cap of two');
    link = settlePayment(link, 'L-1', 'completed', at)!;
    assert.equal(link.closedAt, null, 'one of two: still open');
    link = settlePayment(link, 'L-2', 'completed', at)!;
    assert.equal(linkStanding(link, at), 'used-up');
    const uncapped = claimed(claimed(sampleLink({ reusable: true }), 'U-1'), 'U-2');
    assert.equal(uncapped.payments.length, 2, 'no cap: any number of payers at once');
  });

  it('a closed or expired link takes no claim', () => {
    const link = sampleLink({ expiresAt: at + 10 });
    assert.deepEqual(claimPayment(closeLink(link, at)!, 'L-1', '5000', at), { refusal: 'closed' });
    assert.equal(closeLink(closeLink(link, at)!, at + 1), null, 'closing twice changes nothing');
    assert.deepEqual(claimPayment(link, 'L-1', '5000', at + 10), { refusal: 'expired' });
  });

  it("numbers the link's checkouts <linkId>-<t>-1, -2, …, t its creation time in base 36", () => {
    const link = sampleLink({ createdAt: 1_764_000_000_000 });
    const first = nextCheckoutOf(link);
    assert.equal(first.orderId, `${link.linkId}-${(1_764_000_000_000).toString(36)}-1`);
    assert.equal(nextCheckoutOf(first.link).orderId, `${link.linkId}-${(1_764_000_000_000).toString(36)}-2`);
  });

  it('never gives a link made again under a forgotten id an order id of the earlier one (the service keeps order ids for ever)', () => {
    const earlier = sampleLink({ createdAt: at });
    const again = sampleLink({ linkId: earlier.linkId, createdAt: at + 43 * 24 * 3600_000 });
    const orders = (link: typeof earlier) => {
      const ids: string[] = [];
      let current = link;
      for (let n = 0; n < 5; n++) {
        const next = nextCheckoutOf(current);
        ids.push(next.orderId);
        current = next.link;
      }
      return ids;
    };
    const first = orders(earlier);
    assert.deepEqual(orders(again).filter((orderId) => first.includes(orderId)), [], 'no order id of the earlier link');
  });

  it("keeps an order's own claim whatever became of the link since: closed, expired or used up by another payment", () => {
    const link = sampleLink({ reusable: true, maxPayments: 2, expiresAt: at + 10 });
    const own = claimed(link, 'L-1');
    for (const [what, changed, now] of [
      ['closed', closeLink(own, at)!, at],
      ['expired', own, at + 10],
      ['used up by two other payments', { ...own, completedPayments: 2 }, at],
    ] as const) {
      assert.deepEqual(claimPayment(changed, 'L-1', '5000', now), { link: changed }, `${what}: the re-post of L-1 goes on, the link unchanged`);
      assert.ok('refusal' in claimPayment(changed, 'L-9', '5000', now), `${what}: a new payment is refused`);
    }
  });
});
