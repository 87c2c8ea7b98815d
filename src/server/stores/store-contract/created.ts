/**
 * The contract's cases of the export's paged listing (part of `momo-checkout/store-contract`,
 * store.ts `listPaymentsCreated`, or the fallback of created-pages.ts for a store without it): a
 * window of payments by creation time, read page after page through a cursor, gives each payment of
 * the window once, in order, however many share a millisecond, and nothing else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckoutRecord } from '../../model/records.js';
import { paymentsCreatedPage } from '../created-pages.js';
import { updateCheckoutRecord, type CheckoutStore, type CreatedPaymentsPage } from '../store.js';
import type { VolumeSamples } from './volume.js';
import type { MakeStore } from './samples.js';

/** Every record of the window, read `limit` at a time after the last one read. */
async function readAllPages(store: CheckoutStore, window: Omit<CreatedPaymentsPage, 'after'>): Promise<CheckoutRecord[]> {
  const read: CheckoutRecord[] = [];
  for (let pages = 0; pages < 1_000; pages++) {
    const last = read[read.length - 1];
    const page = await paymentsCreatedPage(store, { ...window, ...(last ? { after: { createdAt: last.createdAt, orderId: last.orderId } } : {}) });
    assert.ok(page.length <= window.limit, `a page holds at most its limit (${page.length} > ${window.limit})`);
    if (page.length === 0) return read;
    read.push(...page);
  }
  throw new Error('the pages never ended: a cursor that does not move on');
}

export function runCreatedPagesContract(makeStore: MakeStore, { sampleRecord, samplePayment }: VolumeSamples): void {
  describe('listPaymentsCreated (the export, by creation time)', () => {
    it('pages through the payments created in a window, each once, in order, across ties of one millisecond', async () => {
      const store = await makeStore({ now: () => 1_000_000 });
      // Far from the other cases' times (0 and the clock), so that only these are in the window.
      const base = 7_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
      const tag = `created-${base}`;
      const at = [base, base + 5, base + 5, base + 5, base + 5, base + 9, base + 200, base - 1, base + 1_000];
      const records = at.map((createdAt, index) => sampleRecord({ orderId: `${tag}-${String.fromCharCode(122 - index)}`, createdAt }));
      const unpaid = sampleRecord({ orderId: `${tag}-unpaid`, createdAt: base + 7 });
      for (const record of [...records, unpaid]) await store.createIfAbsent(record);
      for (const [index, record] of records.entries()) {
        await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, payment: samplePayment(`${record.orderId}`, { state: index % 2 ? 'completed' : 'failed', updatedAt: base + 5_000 - index }) }));
      }
      const window = { from: base, to: base + 1_000, limit: 2 };
      const expected = records
        .filter((record) => record.createdAt >= window.from && record.createdAt < window.to)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((record) => record.orderId);
      const read = (await readAllPages(store, window)).map((record) => record.orderId);
      assert.deepEqual(new Set(read), new Set(expected), 'every payment created in [from, to), none without a payment, none outside');
      assert.equal(read.length, expected.length, 'none read twice');
      const times = read.map((orderId) => records.find((record) => record.orderId === orderId)!.createdAt);
      assert.deepEqual(times, [...times].sort((a, b) => a - b), 'the oldest creation first');
      assert.deepEqual((await readAllPages(store, { ...window, limit: 100 })).map((record) => record.orderId), read, 'the same order whatever the page size');
      await store.close?.();
    });

    it('keeps a payment in the window of its creation whatever its later changes', async () => {
      const store = await makeStore({ now: () => 1_000_000 });
      const base = 8_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
      const record = sampleRecord({ orderId: `created-moved-${base}`, createdAt: base + 10 });
      await store.createIfAbsent(record);
      await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, payment: samplePayment(record.orderId, { state: 'pending', updatedAt: base + 20 }) }));
      await updateCheckoutRecord(store, record.orderId, (current) => ({ ...current, payment: { ...current.payment!, state: 'completed', updatedAt: base + 90_000 } }));
      const inWindow = await paymentsCreatedPage(store, { from: base, to: base + 60_000, limit: 10 });
      assert.deepEqual(inWindow.map((found) => [found.orderId, found.payment?.state]), [[record.orderId, 'completed']], 'found by its creation, as last written');
      assert.deepEqual(await paymentsCreatedPage(store, { from: base + 60_000, to: base + 120_000, limit: 10 }), [], 'not in the window of its last change');
      await store.close?.();
    });
  });
}
