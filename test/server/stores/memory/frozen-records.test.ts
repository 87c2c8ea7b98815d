/**
 * The memory store keeps records and links deeply frozen and hands the same objects out (issue 43:
 * its JSON copies were the largest cost of a notification): a caller's change throws instead of
 * reaching the store, and what JSON would change (what the persistent stores keep) is refused at
 * the write, naming the key, instead of read back altered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, transitionCheckout } from '../../../../src/server/index.js';
import { sampleDelivery, samplePayment, sampleRecord } from '../../../../src/server/stores/store-contract.js';
import { sampleLink } from '../../../../src/server/stores/store-contract/links.js';
import type { CheckoutRecord } from '../../../../src/server/model/records.js';

const now = () => 1_000;

describe('memory store: frozen records, no copies', () => {
  it('hands out the stored record itself, deeply frozen: a change throws and the store keeps its record', async () => {
    const store = createMemoryStore({ now });
    const record = sampleRecord({ deliveries: [sampleDelivery('o', 1, 'callback', 0)] });
    await store.createIfAbsent(record);
    const read = (await store.getByOrderId(record.orderId))!;
    assert.equal(await store.getByTokenHash(record.tokenHash), read, 'every read gives the same object: nothing is copied');
    assert.throws(() => (read.amount = '1'), TypeError);
    assert.throws(() => (read.deliveries as unknown[]).push({}), TypeError);
    assert.throws(() => (read.deliveries[0]!.update!.payment.state = 'completed'), TypeError);
    assert.equal((await store.getByOrderId(record.orderId))!.deliveries[0]!.update!.payment.state, 'pending');
  });

  it('freezes a written record, sharing what it kept from the previous revision', async () => {
    const store = createMemoryStore({ now });
    const record = sampleRecord({ deliveries: [sampleDelivery('o', 1, 'callback', 0)] });
    await store.createIfAbsent(record);
    const { record: next } = await transitionCheckout(store, record.orderId, (current) => ({ ...current, payment: samplePayment('o-1') }));
    const read = (await store.getByOrderId(record.orderId))!;
    assert.equal(read, next);
    assert.ok(Object.isFrozen(read.payment), 'the new payment is frozen');
    assert.equal(read.deliveries, record.deliveries, 'the deliveries are the previous revision\'s, frozen once');
  });

  it('refuses what JSON would change, naming the key, and stores nothing; lets an undefined-valued key through', async () => {
    const store = createMemoryStore({ now });
    const cases: Array<[Partial<CheckoutRecord>, RegExp]> = [
      [{ createdAt: Number.NaN }, /record\.createdAt is NaN/],
      [{ payment: { ...samplePayment('s-1'), updatedAt: new Date(0) as unknown as number } }, /record\.payment\.updatedAt is a Date/],
      [{ deliveryLog: [undefined as never] }, /record\.deliveryLog\[0\] is undefined/],
      [{ amount: 5000n as unknown as string }, /record\.amount is a bigint/],
    ];
    for (const [overrides, message] of cases) {
      const record = sampleRecord(overrides);
      await assert.rejects(store.createIfAbsent(record), (error: Error) => error instanceof TypeError && message.test(error.message) && /plain JSON/.test(error.message));
      assert.equal(await store.getByOrderId(record.orderId), undefined);
    }
    // An undefined-valued key is let through: it reads as the missing key JSON would leave.
    const record = sampleRecord({ returnUrl: undefined as never });
    assert.equal((await store.createIfAbsent(record)).created, true);
    assert.equal((await store.getByOrderId(record.orderId))!.returnUrl ?? null, null);
  });

  it('keeps links frozen too', async () => {
    const store = createMemoryStore({ now });
    const link = sampleLink();
    await store.links!.createLinkIfAbsent(link);
    const read = (await store.links!.getLink(link.linkId))!;
    assert.equal(await store.links!.getLink(link.linkId), read);
    assert.throws(() => (read.description = 'changed'), TypeError);
  });
});
