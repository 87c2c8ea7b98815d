/**
 * `kill -9` while a pay-in is posted (issue 30, finding 1): after the restart, and once the dead
 * call's lock has lapsed, the checkout refuses another number (the service may be collecting from
 * the first), re-posts the same number (the service's 409 is ours), and a refund pays the number
 * the service collected from.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { killWhenPosted } from '../../support/killed-after-post.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { createCompanion, createFileStore } from '../../../src/server/index.js';
import { refundCompanionOptions } from '../refunds/fixtures/companion-options.js';

const child = fileURLToPath(new URL('./fixtures/pay-killed.ts', import.meta.url));
const first = '+2290196000003';
const second = '+2290196000001';

describe('a pay-in whose process is killed with SIGKILL after it was posted', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
    dataDir = mkdtempSync(join(tmpdir(), 'momo-pay-kill-'));
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses another number after the restart, re-posts the same one, and refunds the number that paid', async () => {
    const orderId = `pay-kill-${process.pid}-${Date.now()}`;
    const seed = createCompanion(refundCompanionOptions(sandbox, createFileStore({ dataDir })));
    const { token } = await seed.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    await seed.close();

    await killWhenPosted(child, [dataDir, sandbox.url, sandbox.apiKey, sandbox.webhookSecret, token, first]);
    const payIns = () => sandbox.control.transactions().filter((entry) => entry.kind === 'payin' && entry.orderId === orderId);
    assert.equal(payIns().length, 1, 'the killed process had posted the pay-in');

    // A minute later: the dead process's pay lock (60 s) has lapsed.
    const later = () => Date.now() + 61_000;
    const store = createFileStore({ dataDir, now: later });
    const companion = createCompanion({ ...refundCompanionOptions(sandbox, store), now: later });
    const pay = (phoneNumber: string) =>
      companion.fetch(
        new Request('http://127.0.0.1:9/momo/checkout/pay', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' },
          body: JSON.stringify({ phoneNumber, useWallet: false }),
        }),
      );
    try {
      const other = await pay(second);
      assert.equal(other.status, 409);
      assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'PAYMENT_IN_PROGRESS');
      assert.equal((await store.getByOrderId(orderId))!.payment!.phoneNumber, first, 'the record still names the number posted');

      const same = await pay(first);
      assert.equal(same.status, 200);
      assert.equal(((await same.json()) as { state: string }).state, 'pending', "the 409 to the same request is ours");
      assert.equal(payIns().length, 1);

      // The service collects from the number it was sent; its notification says so. (It was sent
      // to the dead process's URL, a closed port here: the same body is handed to the handler.)
      await sandbox.control.settle(orderId, 'completed');
      const sent = sandbox.control.deliveries().filter((entry) => entry.orderId === orderId && entry.status === 'completed').at(-1)!;
      assert.ok(sent, 'the notification was emitted');
      await companion.handleWebhook(sent.body);
      assert.equal((await companion.getPayment(orderId))!.state, 'completed');

      await companion.refund({ orderId, refundId: 'rf-after-kill', amount: '5000' });
      const payouts = sandbox.control.transactions().filter((entry) => entry.kind === 'payout' && entry.orderId.startsWith(orderId));
      assert.equal(payouts.length, 1);
      assert.equal(payouts[0]!.phoneNumber, first, 'the pay-out goes to the number that paid, never the other one');
    } finally {
      await companion.close();
    }
  });
});
