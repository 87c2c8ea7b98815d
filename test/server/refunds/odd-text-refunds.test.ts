/**
 * Text PostgreSQL's record functions refused, on the money path (issue 55), end to end against the
 * sandbox over real HTTP, on PostgreSQL and on the file store (which always took it):
 *
 * - a refund's reason holding a NUL is a 400 naming `reason` (it was `503 STORE_UNAVAILABLE`, for
 *   ever, with the advice to retry unchanged), one holding half an emoji is kept with U+FFFD in its
 *   place, and any other odd text is kept as written;
 * - a failed pay-out's notification whose `failureReason` holds a NUL is applied:
 *   the refund fails with that reason as the service wrote it, and the notification leaves the
 *   inbox (it was answered 200 and never applied: the refund stayed `pending`, retried for ever).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore, signWebhook, type CheckoutStore } from '../../../src/server/index.js';
import type { RefundView } from '../../../src/server/model/refund.js';
import { createPostgresStore } from '../../../src/server/stores/postgres/postgres-store.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { until } from '../../support/until.js';
import { newOrderId } from '../harness.js';
import { refundHarness } from './fixtures/refund-harness.js';

const serverSecret = 'odd-text-refunds-server-secret-0123456789abcdef';
/** A number whose pay-outs the sandbox leaves pending until it is told (the recipient never answers). */
const silent = '+2290196000003';

let postgres: PostgresServer;
let postgresUrl: string;
let dataDir: string;

before(async () => {
  postgres = await startPostgresServer();
  postgresUrl = postgres.urlOf(createDatabase(postgres));
  dataDir = mkdtempSync(join(tmpdir(), 'momo-odd-text-refunds-'));
});

after(async () => {
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const stores: Record<string, () => Promise<CheckoutStore>> = {
  postgres: () => createPostgresStore({ url: postgresUrl, schema: 'odd_text_refunds' }),
  file: async () => createFileStore({ dataDir }),
};

/** A companion on `store` with one order paid by a number whose pay-outs stay pending until the service settles them. */
async function paidOrder(store: CheckoutStore) {
  const { h, errors } = await refundHarness(store, serverSecret);
  const orderId = newOrderId();
  const token = await h.checkout(orderId, '5000');
  await h.json('/checkout/pay', { token, body: { phoneNumber: silent, useWallet: false } });
  await h.sandbox.control.settle(orderId, 'completed');
  await h.waitFor(orderId, (view) => view.state === 'completed');
  const refund = async (body: unknown) => {
    const response = await fetch(`${h.base}/server/payments/${orderId}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as RefundView & { error?: { code: string; message: string } } };
  };
  return { h, orderId, errors, refund };
}

for (const [kind, open] of Object.entries(stores)) {
  describe(`odd text on the money path, ${kind} store`, () => {
    it("refuses a refund reason's NUL with a 400 naming it, keeps half an emoji as U+FFFD and other odd text as written (server API)", async () => {
      const { h, errors, refund } = await paidOrder(await open());
      try {
        const nul = await refund({ refundId: 'rf-nul', amount: '1000', reason: 'damaged in transit\u0000' });
        assert.equal(nul.status, 400, JSON.stringify(nul.body));
        assert.equal(nul.body.error?.code, 'BAD_REQUEST');
        assert.match(nul.body.error!.message, /^reason holds a NUL character/);

        // Half of an emoji, as `'… 📦'.slice(0, -1)` leaves it: JSON.stringify writes it as "\ud83d".
        const cut = 'colis abîmé 📦'.slice(0, -1);
        const halved = await refund({ refundId: 'rf-cut', amount: '1000', reason: cut });
        assert.equal(halved.status, 200, JSON.stringify(halved.body));
        assert.equal(halved.body.reason, 'colis abîmé \ufffd');
        assert.equal(halved.body.state, 'pending');
        const again = await refund({ refundId: 'rf-cut', amount: '1000', reason: cut });
        assert.equal(again.status, 200, 'the same request again is the same refund');
        assert.equal(again.body.payoutOrderId, halved.body.payoutOrderId);

        const odd = 'tab\t, line\n, bell \u0007, a noncharacter \ufdd0\ufdd00000, the escape written out \\u0000';
        const kept = await refund({ refundId: 'rf-odd', amount: '500', reason: odd });
        assert.equal(kept.status, 200, JSON.stringify(kept.body));
        assert.equal(kept.body.reason, odd);
        assert.deepEqual(errors, [], 'no error line');
      } finally {
        await h.close(); // the companion closes its store
      }
    });

    it("applies a failed pay-out's notification whose failure reason holds a NUL, and it leaves the inbox", async () => {
      const store = await open();
      const { h, orderId, errors, refund } = await paidOrder(store);
      try {
        const pending = await refund({ refundId: 'rf-fails', amount: '1000' });
        assert.equal(pending.body.state, 'pending', JSON.stringify(pending.body));
        // (Half an emoji cannot come this way: a notification holding one is refused as invalid
        // JSON by the verifier, contract/webhook-signature/raw-json-reader.ts.)
        const failureReason = 'recipient wallet closed\u0000, a noncharacter \ufdd0, a control \u0007, 📦';
        const body = await signWebhook(
          [
            ['phoneNumber', silent],
            ['amount', { rawNumber: '1000' }],
            ['orderId', pending.body.payoutOrderId],
            ['status', 'failed'],
            ['failureCategory', 'RECIPIENT\u0000'],
            ['failureReason', failureReason],
          ],
          h.sandbox.webhookSecret,
        );
        const posted = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        assert.equal(posted.status, 200);
        const failedRefund = async () => (await store.getByOrderId(orderId))?.refunds?.find((one) => one.refundId === 'rf-fails' && one.state === 'failed');
        await until('the refund failed', async () => (await failedRefund()) !== undefined, 8_000);
        const failed = (await failedRefund())!;
        assert.equal(failed.failureReason, failureReason, 'the reason as the service wrote it');
        assert.equal(failed.failureCategory, 'RECIPIENT\u0000');
        await until('the inbox emptied', async () => (await store.pendingInbox(100)).length === 0, 8_000);
        assert.equal((await refund({ refundId: 'rf-fails', amount: '1000' })).body.failureReason, failureReason, 'the server API says it too');
        assert.deepEqual(errors, [], 'no error line');
      } finally {
        await h.close(); // the companion closes its store
      }
    });
  });
}
