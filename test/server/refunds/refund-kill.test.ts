/**
 * `kill -9` between writing a refund and writing its pay-out's answer loses nothing and pays
 * nothing twice: the refund was written (and fsynced) before the post, so the repeat finds it in
 * `sending`, posts the same pay-out order id again, and the service's 409 says it exists; the
 * restarted companion does so by itself, before anyone repeats the call.
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
import { refundCompanionOptions } from './fixtures/companion-options.js';
import { sampleRecord, withPayment } from '../../../src/server/stores/store-contract.js';

const child = fileURLToPath(new URL('./fixtures/refund-killed.ts', import.meta.url));

describe('a refund whose process is killed with SIGKILL after the pay-out was posted', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
    dataDir = mkdtempSync(join(tmpdir(), 'momo-refund-kill-'));
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is found after the restart and resumed under the same pay-out id: one pay-out', async () => {
    const record = sampleRecord({ decimalPlaces: 0 });
    const seed = createFileStore({ dataDir });
    await seed.createIfAbsent(record);
    assert.equal(await seed.compareAndSet(record.orderId, 0, withPayment(record, record.orderId, 1, 'completed')), true);
    await seed.close?.();

    await killWhenPosted(child, [dataDir, sandbox.url, sandbox.apiKey, sandbox.webhookSecret, record.orderId]);

    // A minute later: the dead process's lock on this refund (60 s) has lapsed; until then a repeat
    // is answered REFUND_IN_PROGRESS, and nothing is posted.
    const later = () => Date.now() + 61_000;
    const store = createFileStore({ dataDir, now: later });
    const kept = (await store.getByOrderId(record.orderId))!.refunds!;
    assert.equal(kept.length, 1, 'the refund was written before the post');
    assert.equal(kept[0]!.state, 'sending');
    const payoutOrderId = kept[0]!.payoutOrderId;
    const payouts = () => sandbox.control.transactions().filter((transaction) => transaction.kind === 'payout' && transaction.orderId === payoutOrderId);
    assert.equal(payouts().length, 1, 'the killed process had paid out');

    const companion = createCompanion({ ...refundCompanionOptions(sandbox, store), now: later });
    try {
      // The restarted companion resumes it by itself (refunds/resume-refunds.ts), with no call.
      await companion.resumed;
      const settled = (await store.getByOrderId(record.orderId))!.refunds![0]!;
      assert.equal(settled.state, 'pending', 'resumed at start: the 409 to its repeated post means it exists');
      assert.equal(payouts().length, 1, 'nothing paid twice');
      // Resuming by refundId and amount alone, as the docs say, answers the same refund.
      const resumed = await companion.refund({ orderId: record.orderId, refundId: 'rf-killed', amount: '2000' });
      assert.equal(resumed.payoutOrderId, payoutOrderId);
      assert.equal(resumed.state, 'pending', 'the 409 to a repeated post means it exists');
      assert.equal(payouts().length, 1, 'nothing paid twice');
      await assert.rejects(companion.refund({ orderId: record.orderId, refundId: 'rf-other', amount: '3001' }), { code: 'EXCEEDS_PAID_AMOUNT' });
    } finally {
      await companion.close();
    }
  });
});
