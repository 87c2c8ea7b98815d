/**
 * How many kept notifications one process applies at once: what the store says it serves well
 * (`CheckoutStore.writersAtOnce`: the memory and file stores take many, so a burst is applied
 * within about a second of its end, issue 43), or 8 for a store that does not say (a pooled store
 * whose connections a burst would otherwise exhaust).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, signWebhook, transitionCheckout, type CheckoutStore } from '../../../src/server/index.js';
import { samplePayment } from '../../../src/server/stores/store-contract.js';
import { newOrderId, startHarness } from '../harness.js';

/** A memory store whose matches by service order id wait at a gate while it is closed, counted. */
function gatedStore(writersAtOnce: number | undefined) {
  // The memory store's own figure left out: the gated store says `writersAtOnce`, or nothing.
  const { writersAtOnce: _memoryStores, ...store } = createMemoryStore();
  let open!: () => void;
  const gate = { closed: true, waiting: 0, opened: new Promise<void>((resolve) => (open = resolve)), matched: [] as string[] };
  const gated: CheckoutStore = {
    ...store,
    kind: 'gated memory',
    ...(writersAtOnce === undefined ? {} : { writersAtOnce }),
    async getByServiceOrderId(serviceOrderId) {
      gate.matched.push(serviceOrderId);
      if (gate.closed) {
        gate.waiting += 1;
        await gate.opened;
      }
      return store.getByServiceOrderId(serviceOrderId);
    },
  };
  return { store: gated, gate, open: () => ((gate.closed = false), open()) };
}

async function appliedAtOnce(writersAtOnce: number | undefined, notifications: number): Promise<number> {
  const { store, gate, open } = gatedStore(writersAtOnce);
  const applied: string[] = [];
  const h = await startHarness({ store, setupChecksAtStart: false, onPaymentUpdate: (update) => void applied.push(update.orderId) });
  try {
    const orderIds = Array.from({ length: notifications }, () => newOrderId());
    for (const orderId of orderIds) {
      await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      await transitionCheckout(store, orderId, (checkout) => ({ ...checkout, payment: samplePayment(orderId) }));
    }
    for (const orderId of orderIds) {
      const body = await signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
      const answer = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(answer.status, 200);
    }
    // Every notification is kept and answered; those being applied wait at the gate.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const atOnce = gate.waiting;
    open();
    const end = Date.now() + 10_000;
    while (applied.length < notifications && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(applied.length, notifications, 'every kept notification applied once the gate opens');
    return atOnce;
  } finally {
    open();
    await h.close();
  }
}

describe('applying kept notifications', () => {
  it('applies as many at once as the store says it serves, and 8 when it does not say', async () => {
    assert.equal(await appliedAtOnce(32, 20), 20, 'a store that takes 32 at once applies the 20 together');
    assert.equal(await appliedAtOnce(undefined, 20), 8, 'a store that does not say: 8 at a time');
  });

  it("applies a kept notification once while maintenance reads the inbox: a resume waits for the live application", async () => {
    const { store, gate, open } = gatedStore(4);
    const applied: string[] = [];
    const h = await startHarness({ store, setupChecksAtStart: false, maintenanceIntervalMs: 20, onPaymentUpdate: (update) => void applied.push(update.orderId) });
    try {
      await h.companion.resumed;
      const orderId = newOrderId();
      await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      await transitionCheckout(store, orderId, (checkout) => ({ ...checkout, payment: samplePayment(orderId) }));
      const body = await signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
      assert.equal((await h.companion.acceptWebhook(body)).status, 200);
      // The live application waits at the gate, still in the inbox, through several rounds of maintenance.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await store.pendingInbox(10)).length, 1);
      assert.equal(gate.matched.length, 1, 'applied by the live path alone: maintenance waited for it instead of applying it again');
      open();
      const end = Date.now() + 5_000;
      while ((await store.pendingInbox(10)).length > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await store.pendingInbox(10)).length, 0, 'it left the inbox');
      assert.deepEqual(applied, [orderId]);
      assert.equal(gate.matched.length, 1);
    } finally {
      open();
      await h.close();
    }
  });

  it('applies in arrival order however many wait: a burst of 1,500 behind one place', { timeout: 30_000 }, async () => {
    const { store, gate, open } = gatedStore(1);
    const applied: string[] = [];
    const h = await startHarness({ store, setupChecksAtStart: false, onPaymentUpdate: (update) => void applied.push(update.orderId) });
    try {
      const orderIds = Array.from({ length: 1_500 }, () => newOrderId());
      for (const orderId of orderIds) {
        await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
        await transitionCheckout(store, orderId, (checkout) => ({ ...checkout, payment: samplePayment(orderId) }));
      }
      for (const orderId of orderIds) {
        const body = await signWebhook({ phoneNumber: '+2290196000001', amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
        assert.equal((await h.companion.acceptWebhook(body)).status, 200);
      }
      assert.equal(gate.waiting, 1, 'one applied at a time: the rest wait their turn');
      open();
      const end = Date.now() + 20_000;
      while (applied.length < orderIds.length && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(applied.length, orderIds.length, 'every kept notification applied');
      assert.deepEqual(gate.matched, orderIds, 'applied in the order they arrived');
    } finally {
      open();
      await h.close();
    }
  });
});
