/**
 * Issue 23, "approve on your phone": the companion draws the payment's own approval page as a QR
 * code, and nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore } from '../../../src/server/index.js';
import { approvalQrView } from '../../../src/server/page-routes/approval-qr.js';
import { transitionCheckout } from '../../../src/server/stores/store.js';
import { samplePayment } from '../../../src/server/stores/store-contract.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const store = createMemoryStore();
let h: Harness;
before(async () => {
  h = await startHarness({ setupChecksAtStart: false, store });
});
after(async () => h.close());

/** The dark modules of a drawing, as "row,column" strings, read back from its path. */
function darkModules(path: string): Set<string> {
  const dark = new Set<string>();
  for (const [, column, row, width] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let c = Number(column); c < Number(column) + Number(width); c++) dark.add(`${row},${c}`);
  }
  return dark;
}

describe('the approval page as a QR code', () => {
  it('draws a QR code: a version-sized grid with the three finder patterns in their corners', () => {
    const { size, path, url } = approvalQrView('https://pay.example/authorize/7f3a?session=abc');
    assert.equal(url, 'https://pay.example/authorize/7f3a?session=abc');
    assert.equal((size - 17) % 4, 0, 'a QR code is 21, 25, 29... modules wide');
    const dark = darkModules(path);
    for (const [top, left] of [[0, 0], [0, size - 7], [size - 7, 0]] as Array<[number, number]>) {
      for (let i = 0; i < 7; i++) {
        // The finder's outer ring is dark all round; the ring inside it is light.
        for (const [r, c] of [[top, left + i], [top + 6, left + i], [top + i, left], [top + i, left + 6]] as Array<[number, number]>) {
          assert.ok(dark.has(`${r},${c}`), `module ${r},${c} of a finder pattern is dark`);
        }
      }
      assert.ok(!dark.has(`${top + 1},${left + 1}`), 'the finder pattern has its light ring');
      assert.ok(dark.has(`${top + 3},${left + 3}`), 'and its dark centre');
    }
    assert.notEqual(approvalQrView('https://pay.example/authorize/other').path, path);
  });

  it('answers the payment’s approval page, once the service has sent one', async () => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    const early = await h.json('/checkout/approval-qr', { token });
    assert.equal(early.status, 400);
    assert.equal(early.body.error.code, 'BAD_REQUEST');

    const authorizationUrl = 'https://wallet.example/approve/123';
    await transitionCheckout(store, orderId, (record) => ({
      ...record,
      version: record.version + 1,
      payment: samplePayment('svc-1', { state: 'redirect-ready', workflow: 'redirect_url', useWallet: true, authorizationUrl }),
    }));
    const answer = await h.json('/checkout/approval-qr', { token });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, approvalQrView(authorizationUrl));
  });

  it('refuses a request without the checkout token', async () => {
    const answer = await h.json('/checkout/approval-qr', {});
    assert.equal(answer.status, 401);
  });
});
