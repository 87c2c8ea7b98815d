/**
 * Idempotency keys are unique for ever (issue 20): an order id created again after its record
 * expired starts a new life, and its merchant notifications never reuse a key of the first life.
 * Before, both lives said `<orderId>.1`, `<orderId>.2`: the first life's `.2` was `failed`, the
 * second's `completed`, and a merchant skipping keys it had handled dropped the paid outcome.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentState } from '../../../src/contract/companion.js';
import { createCheckoutRecord } from '../../../src/server/payments/checkouts.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';
import { createMemoryStatusHub } from '../../../src/server/stores/memory/memory-status-hub.js';
import { createTransitions } from '../../../src/server/payments/transitions.js';
import { samplePayment, sampleRecord } from '../../../src/server/stores/store-contract.js';

describe('idempotency keys', () => {
  it('differ between two lives of one order id, and stay the same within one life', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const now = () => clock;
    const store = createMemoryStore({ now });
    const transitions = createTransitions({ store, hub: createMemoryStatusHub(), now, sinks: ['callback'] });
    const orderId = 'order-reborn';
    const order = { orderId, amount: '5000', currencyCode: 'XOF' };
    const checkoutOptions = { ttlMs: 30 * 60_000, maxAttempts: 3, now, defaultReturnUrl: null };
    const move = (state: PaymentState) => transitions.update(orderId, (payment) => ({ ...(payment ?? samplePayment(orderId)), state }));
    /** The key of each queued notification, with its state. */
    const keys = async () => ((await store.getByOrderId(orderId))?.deliveries ?? []).map((delivery) => [delivery.update!.payment.state, delivery.id] as const);

    await createCheckoutRecord(store, order, checkoutOptions);
    await move('pending');
    await move('failed');
    const firstLife = await keys();

    // A week after its last change the record is gone; the shop creates the same order id again.
    clock += 8 * 24 * 3600_000;
    assert.equal(await store.getByOrderId(orderId), undefined, 'the first life expired');
    await createCheckoutRecord(store, order, checkoutOptions);
    await move('pending');
    await move('completed');
    const secondLife = await keys();

    assert.deepEqual(firstLife.map(([state]) => state), ['pending', 'failed']);
    assert.deepEqual(secondLife.map(([state]) => state), ['pending', 'completed']);
    const all = [...firstLife, ...secondLife].map(([, key]) => key);
    assert.equal(new Set(all).size, 4, `every key is new: ${all.join(', ')}`);
    for (const key of all) assert.ok(key.startsWith(`${orderId}.`), `${key} starts with the order id`);
    // Each update carries its delivery's key (the same on every retry of it).
    for (const delivery of (await store.getByOrderId(orderId))!.deliveries) assert.equal(delivery.update!.idempotencyKey, delivery.id);
  });

  it('keep the old form `<orderId>.<version>` for a record written before lives had an id', async () => {
    const store = createMemoryStore();
    const transitions = createTransitions({ store, hub: createMemoryStatusHub(), now: Date.now, sinks: ['callback'] });
    const legacy = sampleRecord({ orderId: 'order-legacy' });
    delete (legacy as { lifeId?: string }).lifeId;
    await store.createIfAbsent(legacy);
    await transitions.update(legacy.orderId, () => samplePayment(legacy.orderId));
    assert.deepEqual((await store.getByOrderId(legacy.orderId))?.deliveries.map((delivery) => delivery.id), ['order-legacy.1']);
  });
});
