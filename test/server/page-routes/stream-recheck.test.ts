/**
 * Issue 40 §3: an open status stream reads its payment again every few seconds, whatever its hub
 * says. Here two companions share one file store (as two processes do: they share the file, not a
 * bus, so each has its own in-process hub): the completion applied by B is never published to the
 * stream A holds. In 0.4.0 that stream read the store only when it opened and stayed on `pending`
 * for its 5-minute life; now it brings `completed` within STREAM_RECHECK_MS.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCompanion, createFileStore, signWebhook, type Companion } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { STREAM_RECHECK_MS } from '../../../src/server/page-routes/event-stream.js';
import { pendingNumber, watchStream } from '../../support/payer-page.js';
import { newOrderId, shopOrigin, startHarness, type Harness } from '../harness.js';

const recheckMs = STREAM_RECHECK_MS;
let dataDir: string;
let a: Harness;
let b: Companion;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'momo-recheck-'));
  a = await startHarness({ store: createFileStore({ dataDir }), setupChecksAtStart: false });
  b = createCompanion({
    baseUrl: a.sandbox.url,
    apiKey: a.sandbox.apiKey,
    webhookSecrets: [a.sandbox.webhookSecret],
    publicUrl: a.base,
    allowedOrigins: [shopOrigin],
    allowInsecureLocalUrls: true,
    setupChecksAtStart: false,
    log: silentLogger,
    store: createFileStore({ dataDir }),
  });
});

after(async () => {
  await b?.close();
  await a?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('status stream re-read', () => {
  it('brings a completion its hub never published, within the re-read interval', async (t) => {
    const orderId = newOrderId();
    const token = await a.checkout(orderId);
    const paid = await a.json('/checkout/pay', { token, body: { phoneNumber: pendingNumber, useWallet: false } });
    assert.equal(paid.body.state, 'pending', JSON.stringify(paid.body));
    const stream = await watchStream(a.base, token, shopOrigin);
    try {
      const result = await b.handleWebhook(await signWebhook({ phoneNumber: pendingNumber, amount: 5000, orderId, status: 'completed' }, a.sandbox.webhookSecret));
      assert.equal(result.status === 200 && result.outcome, 'applied', JSON.stringify(result));
      const appliedAt = Date.now();
      await stream.until('completed', recheckMs + 3_000);
      t.diagnostic(`heard ${Date.now() - appliedAt} ms after another process applied it (re-read every ${recheckMs} ms)`);
      assert.deepEqual(stream.states, ['pending', 'completed']);
    } finally {
      stream.close();
    }
  });
});
