/**
 * Payment links under the sequences issue 55 found (items 1 and 2), over real HTTP with the
 * sandbox as the payment service:
 * - a pay-in whose answer was lost, then the link closed or expired: the page's re-post of the same
 *   pay goes on (never "nothing was sent to your phone" for a payment that was sent), and the
 *   payment completes and counts on the link;
 * - a link created again under the same Idempotency-Key after the first was forgotten: its first
 *   payer gets a checkout of their own, never the earlier link's order (kept by a refund).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.js';
import { linkRetentionAfterExpiryMs } from '../../../src/server/model/link.js';
import { updateCheckoutRecord } from '../../../src/server/stores/store.js';
import { startHarness, type Harness } from '../harness.js';

const secret = 'test-server-secret-link-sequences-0123456789';
const numbers = { approve: '+2290196000001', noAnswer: '+2290196000003' };
const elementDir = mkdtempSync(join(tmpdir(), 'momo-link-sequences-'));
writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
writeFileSync(join(elementDir, 'momo-checkout-test.js'), '/* the element */');
after(() => rmSync(elementDir, { recursive: true, force: true }));

/** One clock for the companion, its store and the sandbox (the service signs its notifications with it). */
function sharedClock() {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  return clock;
}

async function start(clock = sharedClock()): Promise<{ h: Harness; clock: ReturnType<typeof sharedClock>; store: ReturnType<typeof createMemoryStore> }> {
  const store = createMemoryStore({ now: clock.now });
  const h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, elementAssetsDir: elementDir, store, now: clock.now }, { now: clock.now });
  return { h, clock, store };
}

function api(h: Harness, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${h.base}/server${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A payer's press of the link page's button: the token of the checkout it answers. */
async function openCheckout(h: Harness, url: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { origin: new URL(h.base).origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  const html = await response.text();
  const token = /<momo-checkout [^>]*token="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, `the page answered a checkout (${response.status}): ${html.slice(0, 300)}`);
  return token;
}

const pay = (h: Harness, token: string, phoneNumber: string) => h.json('/checkout/pay', { token, body: { phoneNumber, useWallet: false } });
const payInsOf = (h: Harness, orderId: string) => h.sandbox.control.transactions().filter((transaction) => transaction.orderId === orderId);

describe('payment links: a payment already sent goes on, whatever became of its link', () => {
  for (const ending of ['closed by the merchant', 'expired'] as const) {
    it(`a lost answer, the link ${ending}, then the page's re-post: the payment goes on, is not refused, and completes`, async () => {
      const { h, clock } = await start();
      try {
        const link = await (await api(h, '/links', { currencyCode: 'XOF', description: 'Pagne wax', amount: '5000', expiresAt: new Date(clock.now() + 60_000).toISOString() })).json();
        const token = await openCheckout(h, link.url);
        // The pay-in is created at the service, and its answer (and the one re-post's) lost.
        h.sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 2 });
        const first = await pay(h, token, numbers.noAnswer);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.state, 'unknown', 'the outcome is not known');
        const orderId = first.body.orderId as string;
        assert.equal(payInsOf(h, orderId).length, 1, 'the pay-in reached the service');

        if (ending === 'expired') clock.offset += 61_000;
        else assert.equal((await api(h, `/links/${link.linkId}/close`, {})).status, 200);

        // The element posts the same pay again after a lost answer.
        const again = await pay(h, token, numbers.noAnswer);
        assert.equal(again.status, 200, `the re-post is not refused: ${JSON.stringify(again.body)}`);
        assert.notEqual(again.body.state, 'failed');
        assert.equal(payInsOf(h, orderId).length, 1, 'still one pay-in for the order: the re-post found it (409, ours)');

        await h.sandbox.control.settle(orderId, 'completed');
        await h.waitFor(orderId, (view) => view.state === 'completed');
        const read = await (await api(h, `/links/${link.linkId}`)).json();
        assert.deepEqual(read.payments.map((payment: any) => [payment.orderId, payment.state]), [[orderId, 'completed']]);
        assert.equal(read.completedPayments, 1, 'the payment counts on the link');
      } finally {
        await h.close();
      }
    });
  }
});

describe('payment links: a link created again under a forgotten Idempotency-Key', () => {
  it("gives its first payer a checkout of their own, never the earlier link's order kept by a refund", async () => {
    const { h, clock, store } = await start();
    try {
      const key = 'invoice-2026-118';
      const body = { currencyCode: 'XOF', description: 'Facture 118', amount: '5000', expiresAt: new Date(clock.now() + 3_600_000).toISOString() };
      const created = await api(h, '/links', body, { 'idempotency-key': key });
      assert.equal(created.status, 201);
      const earlier = await created.json();
      const earlierToken = await openCheckout(h, earlier.url);
      const paid = await pay(h, earlierToken, numbers.approve);
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      const earlierOrder = paid.body.orderId as string;
      await h.waitFor(earlierOrder, (view) => view.state === 'completed');
      // A refund days later keeps the earlier order in the store beyond the link (a week after its last change).
      await updateCheckoutRecord(store, earlierOrder, (record) => ({ ...record, retainUntil: clock.now() + 60 * 24 * 3_600_000 }));

      // The link is forgotten 35 days after its expiry; the shop's script uses the key again.
      clock.offset += 3_600_000 + linkRetentionAfterExpiryMs + 60_000;
      assert.equal((await api(h, `/links/${earlier.linkId}`)).status, 404, 'the earlier link is forgotten');
      const again = await api(h, '/links', { ...body, expiresAt: new Date(clock.now() + 3_600_000).toISOString() }, { 'idempotency-key': key });
      assert.equal(again.status, 201, 'a new link');
      const link = await again.json();
      assert.equal(link.linkId, earlier.linkId, 'the key gives the same id (no index of keys)');

      const token = await openCheckout(h, link.url);
      assert.notEqual(token, earlierToken, "not the earlier payer's checkout");
      const status = await h.json('/checkout', { token });
      assert.equal(status.body.payment ?? null, null, `a checkout with no payment yet: ${JSON.stringify(status.body)}`);
      const payIns = h.sandbox.control.transactions().length;
      const newPay = await pay(h, token, numbers.approve);
      assert.equal(newPay.status, 200, JSON.stringify(newPay.body));
      assert.notEqual(newPay.body.orderId, earlierOrder);
      assert.equal(h.sandbox.control.transactions().length, payIns + 1, 'a pay-in of its own');
      await h.waitFor(newPay.body.orderId, (view) => view.state === 'completed');
      const read = await (await api(h, `/links/${link.linkId}`)).json();
      assert.deepEqual(read.payments.map((payment: any) => [payment.orderId, payment.state]), [[newPay.body.orderId, 'completed']]);
      assert.equal(read.state, 'used-up');
    } finally {
      await h.close();
    }
  });
});
