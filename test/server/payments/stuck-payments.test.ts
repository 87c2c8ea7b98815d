/**
 * Stuck payments made visible: the service gives an API key no way to poll an outcome and sends
 * each notification once, so the companion lists open payments with what to tell its support.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signWebhook, type Logger, type PaymentSummary } from '../../../src/server/index.js';
import { newOrderId, startHarness } from '../harness.js';

const noAnswer = '+2290196000003';

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: unknown }> } {
  const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
  const at = (level: string) => (message: string, fields?: unknown) => void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as never;
}

describe('stuck payments', () => {
  it('lists an open payment with its transaction id, a masked number and the sentence for support; tells onStale once', async () => {
    const told: PaymentSummary[][] = [];
    const h = await startHarness({ setupChecksAtStart: false, staleAfterMinutes: 0, maintenanceIntervalMs: 50, onStale: (list) => void told.push(list) });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      const [summary] = (await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 })).filter((item) => item.orderId === orderId);
      assert.ok(summary, 'listed');
      assert.equal(summary.state, 'pending');
      assert.equal(summary.transactionId, h.sandbox.control.transaction(orderId)?.transactionId);
      assert.equal(summary.amount, '5000');
      assert.equal(summary.currencyCode, 'XOF');
      assert.ok(!summary.phoneNumberMasked.includes('96000003'), 'the number is masked');
      assert.match(summary.action, new RegExp(`re-emit the notification of transaction ${summary.transactionId}`));
      assert.equal((await h.companion.listPayments({ state: 'stale', olderThanMinutes: 60 })).filter((item) => item.orderId === orderId).length, 0, 'not stale before its time');

      const end = Date.now() + 3_000;
      while (!told.some((list) => list.some((item) => item.orderId === orderId)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(told.flat().filter((item) => item.orderId === orderId).length, 1, 'onStale hears of it once');

      await h.sandbox.control.settle(orderId, 'completed');
      await h.waitFor(orderId, (view) => view.state === 'completed');
      assert.equal((await h.companion.listPayments({ state: 'stale', olderThanMinutes: 0 })).filter((item) => item.orderId === orderId).length, 0);
    } finally {
      await h.close();
    }
  });

  it('names the order of a genuine notification refused for its timestamp, and lists the payment as stuck', async () => {
    const log = recordingLogger();
    const h = await startHarness({ setupChecksAtStart: false, log });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      // This server's clock is 6 minutes ahead of the service's: the notification looks old.
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret, { now: () => Date.now() - 6 * 60_000 });
      const response = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(response.status, 400);
      const line = log.lines.find((entry) => /validly signed service notification refused/.test(entry.message));
      assert.ok(line, 'logged');
      assert.match(JSON.stringify(line.fields), new RegExp(orderId));
      assert.match(JSON.stringify(line.fields), /completed/);
      assert.equal((await h.companion.getPayment(orderId))?.state, 'pending', 'still refused: never applied');
      const [summary] = (await h.companion.listPayments({ state: 'stale' })).filter((item) => item.orderId === orderId);
      assert.ok(summary, 'listed as stuck at once, whatever its age');
      assert.equal(summary.refusedNotification?.status, 'completed');
      assert.match(summary.action, /clock/);
    } finally {
      await h.close();
    }
  });
});
