/**
 * Issue 13 §5: the payer coming back from an approval page lands on the merchant's page with the
 * order reference, whether the return URL is the companion's fixed one or the checkout's own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.js';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

const store = createMemoryStore();
let h: Harness;
before(async () => {
  h = await startHarness({ setupChecksAtStart: false, store });
});
after(async () => h.close());

async function comeBack(orderId: string, outcome: 'success' | 'failure'): Promise<URL> {
  const record = await store.getByOrderId(orderId);
  assert.ok(record, 'the checkout exists');
  const response = await fetch(`${h.base}/return/${record.returnId}?outcome=${outcome}`, { redirect: 'manual' });
  assert.equal(response.status, 303);
  await response.arrayBuffer();
  return new URL(response.headers.get('location')!);
}

describe('the return from an approval page', () => {
  it('carries the order id next to the outcome on the fixed return URL', async () => {
    const orderId = newOrderId();
    await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    const target = await comeBack(orderId, 'success');
    assert.equal(`${target.origin}${target.pathname}`, `${shopOrigin}/checkout`);
    assert.equal(target.searchParams.get('momo_return'), 'success');
    assert.equal(target.searchParams.get('momo_order'), orderId);
  });

  it("keeps a per-checkout return URL and its own query, and adds the order", async () => {
    const orderId = newOrderId();
    await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF', returnUrl: 'https://shop.example/orders/42?step=pay' });
    const target = await comeBack(orderId, 'failure');
    assert.equal(target.href, `https://shop.example/orders/42?step=pay&momo_return=failure&momo_order=${orderId}`);
  });
});
