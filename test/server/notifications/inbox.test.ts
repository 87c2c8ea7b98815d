/**
 * A notification is kept in the store before the webhook route answers 200, and applied from
 * there: a failure or a restart between the answer and the processing loses nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, signWebhook, type CheckoutStore, type PaymentUpdate } from '../../../src/server/index.js';
import { newOrderId, startHarness } from '../harness.js';

const noAnswer = '+2290196000003';

/** A store whose chosen methods fail while `broken.on` is true. */
function breakable(store: CheckoutStore, methods: Array<keyof CheckoutStore>) {
  const broken = { on: false };
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (broken.on && methods.includes(name as keyof CheckoutStore)) return Promise.reject(new Error(`store down (${String(name)})`));
        return value.apply(target, args);
      };
    },
  });
  return { store: wrapped, broken };
}

async function postWebhook(base: string, body: string): Promise<number> {
  const response = await fetch(`${base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await response.arrayBuffer();
  return response.status;
}

describe('the notification inbox', () => {
  it('answers 503, not 200, when the notification cannot be stored', async () => {
    const { store, broken } = breakable(createMemoryStore(), ['addToInbox']);
    const h = await startHarness({ store, setupChecksAtStart: false });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      broken.on = true;
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
      assert.equal(await postWebhook(h.base, body), 503);
      assert.equal((await h.companion.getPayment(orderId))?.state, 'pending');
    } finally {
      broken.on = false;
      await h.close();
    }
  });

  it('applies a kept notification once the store is back, though processing failed after the 200', async () => {
    const updates: PaymentUpdate[] = [];
    const { store, broken } = breakable(createMemoryStore(), ['compareAndSet']);
    const h = await startHarness({ store, setupChecksAtStart: false, maintenanceIntervalMs: 50, onPaymentUpdate: (update) => void updates.push(update) });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      broken.on = true;
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
      assert.equal(await postWebhook(h.base, body), 200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await store.pendingInbox(10)).length, 1, 'kept while it could not be applied');
      broken.on = false;
      const view = await h.waitFor(orderId, (payment) => payment.state === 'completed');
      assert.equal(view.state, 'completed');
      await h.waitFor(orderId, () => updates.some((update) => update.orderId === orderId && update.payment.state === 'completed'));
      assert.equal(updates.filter((update) => update.orderId === orderId && update.payment.state === 'completed').length, 1);
      assert.deepEqual(await store.pendingInbox(10), []);
    } finally {
      broken.on = false;
      await h.close();
    }
  });

  it('a companion started on the same store applies what the previous one kept but never processed', async () => {
    const shared = createMemoryStore();
    const { store, broken } = breakable(shared, ['compareAndSet', 'markInboxDone']);
    const first = await startHarness({ store, setupChecksAtStart: false });
    const orderId = newOrderId();
    let body: string;
    const secret = first.sandbox.webhookSecret;
    try {
      const token = await first.checkout(orderId);
      await first.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      broken.on = true;
      body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, first.sandbox.webhookSecret);
      assert.equal(await postWebhook(first.base, body), 200);
    } finally {
      await first.close();
    }
    const updates: PaymentUpdate[] = [];
    // The restarted companion has the same secret (its own sandbox's would be another).
    const second = await startHarness({ store: shared, webhookSecrets: [secret], setupChecksAtStart: false, onPaymentUpdate: (update) => void updates.push(update) });
    try {
      await second.companion.resumed;
      assert.equal((await second.companion.getPayment(orderId))?.state, 'completed');
      await second.waitFor(orderId, () => updates.some((update) => update.payment.state === 'completed'));
      // The same notification again is a duplicate: nothing more happens.
      assert.equal(await postWebhook(second.base, body), 200);
      assert.equal((await second.companion.handleWebhook(body)).outcome, 'duplicate');
      assert.equal(updates.filter((update) => update.payment.state === 'completed').length, 1);
    } finally {
      await second.close();
    }
  });

  it('a process sent a notification again, that another process kept and died before applying, applies it at once', async () => {
    const shared = createMemoryStore();
    const { store, broken } = breakable(shared, ['compareAndSet', 'markInboxDone']);
    const first = await startHarness({ store, setupChecksAtStart: false });
    const secret = first.sandbox.webhookSecret;
    // The second process runs beside the first (rounds of maintenance far apart: only the duplicate can apply it).
    const updates: PaymentUpdate[] = [];
    let firstGone = false;
    const second = await startHarness({ store: shared, webhookSecrets: [secret], setupChecksAtStart: false, maintenanceIntervalMs: 600_000, onPaymentUpdate: (update) => void updates.push(update) });
    try {
      await second.companion.resumed;
      const orderId = newOrderId();
      const token = await first.checkout(orderId);
      await first.json('/checkout/pay', { token, body: { phoneNumber: noAnswer, useWallet: false } });
      // The first process keeps it (200), and cannot apply it before it is gone.
      broken.on = true;
      const body = await signWebhook({ phoneNumber: noAnswer, amount: 5000, orderId, status: 'completed' }, secret);
      assert.equal(await postWebhook(first.base, body), 200);
      await first.close();
      firstGone = true;
      assert.equal((await shared.pendingInbox(10)).length, 1, 'kept, not applied');
      // The proxy, whose request to the first was cut, sends it to the second.
      assert.equal(await postWebhook(second.base, body), 200);
      await second.waitFor(orderId, (payment) => payment.state === 'completed');
      await second.waitFor(orderId, () => updates.some((update) => update.orderId === orderId && update.payment.state === 'completed'));
      assert.deepEqual(await shared.pendingInbox(10), [], 'it left the inbox');
      // Sent again once more: nothing more happens.
      assert.equal(await postWebhook(second.base, body), 200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(updates.filter((update) => update.orderId === orderId && update.payment.state === 'completed').length, 1, 'the merchant told once');
    } finally {
      broken.on = false;
      if (!firstGone) await first.close();
      await second.close();
    }
  });
});
