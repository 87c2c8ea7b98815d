/**
 * The merchant hears every transition at least once, in order, without holding up the payer or
 * other payments: onPaymentUpdate runs from a queue written with the transition.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentUpdate } from '../../../src/server/index.js';
import { newOrderId, startHarness } from '../harness.js';

const push = { approve: '+2290196000001', noAnswer: '+2290196000003' };
const fast = { deliveryRetryDelaysMs: [20], maintenanceIntervalMs: 50, setupChecksAtStart: false } as const;

async function until(what: string, predicate: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('onPaymentUpdate deliveries', () => {
  it('calls again while it throws, until it succeeds: one success per transition, the same idempotency key each time', async () => {
    const calls: PaymentUpdate[] = [];
    const succeeded: PaymentUpdate[] = [];
    let failuresLeft = 3;
    const h = await startHarness({
      ...fast,
      onPaymentUpdate: (update) => {
        calls.push(update);
        if (update.payment.state === 'completed' && failuresLeft-- > 0) throw new Error('fulfilment database down');
        succeeded.push(update);
      },
    });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
      await until('the completed update to succeed', () => succeeded.some((update) => update.payment.state === 'completed'));
      const completedCalls = calls.filter((update) => update.payment.state === 'completed');
      assert.equal(completedCalls.length, 4, 'three failures, then the success');
      assert.equal(new Set(completedCalls.map((update) => update.idempotencyKey)).size, 1);
      assert.deepEqual(succeeded.map((update) => update.payment.state), ['pending', 'completed']);
      const stored = await h.companion.getPayment(orderId);
      assert.equal(stored?.state, 'completed');
    } finally {
      await h.close();
    }
  });

  it('never makes the payer wait for a hanging callback, keeps other orders flowing, and close() returns', async () => {
    const delivered: string[] = [];
    let hangingOrder = '';
    const h = await startHarness({
      ...fast,
      deliveryTimeoutMs: 200,
      closeTimeoutMs: 300,
      onPaymentUpdate: (update) => {
        if (update.orderId === hangingOrder) return new Promise<void>(() => {});
        delivered.push(`${update.orderId}:${update.payment.state}`);
      },
    });
    try {
      hangingOrder = newOrderId();
      const token = await h.checkout(hangingOrder);
      const started = Date.now();
      const pay = await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
      assert.equal(pay.status, 200);
      assert.ok(Date.now() - started < 3_000, 'the pay request answered without waiting for merchant code');
      await h.waitFor(hangingOrder, (view) => view.state === 'completed');
      const other = newOrderId();
      const otherToken = await h.checkout(other);
      await h.json('/checkout/pay', { token: otherToken, body: { phoneNumber: push.approve, useWallet: false } });
      await until('the other order to be reported', () => delivered.includes(`${other}:completed`));
    } finally {
      const closing = Date.now();
      await h.close();
      assert.ok(Date.now() - closing < 3_000, 'close() does not wait for a hanging callback');
    }
  });

  it('delivers in order per order: a slow "pending" callback is acknowledged before "completed" goes out', async () => {
    const log: string[] = [];
    const h = await startHarness({
      ...fast,
      onPaymentUpdate: async (update) => {
        log.push(`start:${update.payment.state}`);
        if (update.payment.state === 'pending') await new Promise((resolve) => setTimeout(resolve, 300));
        log.push(`end:${update.payment.state}`);
      },
    });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: push.noAnswer, useWallet: false } });
      await h.sandbox.control.settle(orderId, 'completed');
      await until('the completed update', () => log.includes('end:completed'));
      assert.deepEqual(log, ['start:pending', 'end:pending', 'start:completed', 'end:completed']);
    } finally {
      await h.close();
    }
  });

  it('hands onPaymentUpdate an update of its own, which the merchant may change: one call per transition', async () => {
    const calls: string[] = [];
    const h = await startHarness({
      ...fast,
      onPaymentUpdate: (update) => {
        calls.push(update.payment.state);
        // A merchant's code that marks what it was given (the memory store keeps its copy frozen).
        Object.assign(update, { handledAt: Date.now() });
        update.payment.state = 'failed';
      },
    });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: push.approve, useWallet: false } });
      await until('the completed update', () => calls.includes('completed'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(calls, ['pending', 'completed'], 'each delivered once: the change did not fail the delivery');
      assert.equal((await h.companion.getPayment(orderId))?.state, 'completed', 'nor reach the store');
    } finally {
      await h.close();
    }
  });
});
