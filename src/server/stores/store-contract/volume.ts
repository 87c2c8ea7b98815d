/**
 * The contract's cases at a busy shop's volume (part of `momo-checkout/store-contract`): tens of
 * thousands of finished payments around one stuck refund, one held payment and the last hour's
 * failures. A store's support views (store.ts `listNeedingSupport`, `countPayments`, or the
 * fallbacks in support-views.ts for a store without them) must find every one, the newest first:
 * a capped read of the oldest payments once hid them (a refund never resumed, an alert gone blind).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PaymentState } from '../../../contract/companion.js';
import type { CheckoutRecord, PaymentRecord } from '../../model/records.js';
import { newRefundRecord } from '../../model/refund.js';
import { updateCheckoutRecord, type CheckoutStore } from '../store.js';
import { countPaymentsBetween, recordsNeedingSupport } from '../support-views.js';
import type { MakeStore } from './samples.js';

const hourMs = 3_600_000;
const weekMs = 7 * 24 * hourMs;
const operator = { code: 'mtn', name: 'MTN', logoUrl: 'https://example.test/mtn.png', instructions: null };

/** The contract's record builders (store-contract.ts), handed in: this file is imported by it. */
export interface VolumeSamples {
  sampleRecord(overrides: Partial<CheckoutRecord>): CheckoutRecord;
  samplePayment(serviceOrderId: string, overrides: Partial<PaymentRecord>): PaymentRecord;
}

/** A finished payment changed at `updatedAt`, kept a week after (as the companion keeps one). */
function finished({ sampleRecord, samplePayment }: VolumeSamples, tag: string, index: number, state: PaymentState, updatedAt: number): CheckoutRecord {
  const record = sampleRecord({ orderId: `${tag}-${index}`, retainUntil: updatedAt + weekMs + hourMs });
  const reported = state === 'completed' ? { reportedPhoneNumber: '+2290196000001' } : {};
  return { ...record, payment: samplePayment(`${tag}-${index}`, { state, updatedAt, operator, ...reported }) };
}

/** Writes `records` through the store's own create, a few hundred at a time. */
async function seed(store: CheckoutStore, records: readonly CheckoutRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += 500) await Promise.all(records.slice(start, start + 500).map((record) => store.createIfAbsent(record)));
}

export function runVolumeContract(makeStore: MakeStore, samples: VolumeSamples, volume: number, bulk: (store: CheckoutStore, records: readonly CheckoutRecord[]) => Promise<void> = seed): void {
  describe(`at volume: ${volume} finished payments`, () => {
    const now = Date.now();
    const tag = `volume-${now}-${Math.random().toString(36).slice(2, 8)}`;
    let store: CheckoutStore;
    // The week before the last hour, oldest first: the newest of them is the one refunded.
    const older = Array.from({ length: volume }, (_, index) => finished(samples, tag, index, 'completed', now - weekMs + hourMs + Math.floor(((weekMs - 3 * hourMs) * index) / volume)));
    const failedLastHour = Array.from({ length: 8 }, (_, index) => finished(samples, `${tag}-failed`, index, 'failed', now - 50 * 60_000 + index * 60_000));
    const refunded = older[older.length - 1]!;
    const held = { ...older[volume >> 1]!, payment: { ...older[volume >> 1]!.payment!, state: 'failed' as const, amountMismatch: true } };

    before(async () => {
      store = await makeStore({ now: () => now });
      await bulk(store, [...older.filter((record) => record.orderId !== held.orderId), held, ...failedLastHour]);
      // The newest payment's refund, left `sending` ten minutes ago (its process stopped).
      const refund = newRefundRecord({ refundId: `${tag}-refund`, payoutOrderId: `${refunded.orderId}-r1`, amount: '1000', reason: null, phoneNumber: '+2290196000001' }, now - 10 * 60_000);
      await updateCheckoutRecord(store, refunded.orderId, (current) => ({ ...current, refunds: [refund] }));
    });
    after(async () => {
      await store.close?.();
    });

    it('lists every record needing support, the newest first, whatever surrounds it', async () => {
      const found = (await recordsNeedingSupport(store)).map((record) => record.orderId).filter((id) => id.startsWith(tag));
      assert.deepEqual(found, [refunded.orderId, held.orderId], 'the stuck refund and the held payment, newest first, and nothing else');
    });

    it('drops a record from the support views in the write that settles it', async () => {
      await updateCheckoutRecord(store, refunded.orderId, (current) => ({ ...current, refunds: current.refunds!.map((refund) => ({ ...refund, state: 'completed' as const, updatedAt: now })) }));
      const found = (await recordsNeedingSupport(store)).map((record) => record.orderId).filter((id) => id.startsWith(tag));
      assert.deepEqual(found, [held.orderId]);
      await updateCheckoutRecord(store, refunded.orderId, (current) => ({ ...current, refunds: current.refunds!.map((refund) => ({ ...refund, state: 'pending' as const })) }));
      assert.equal((await recordsNeedingSupport(store)).filter((record) => record.orderId === refunded.orderId).length, 1, 'back with a refund without outcome');
    });

    it('counts the last hour and the week by operator and state, none cut', async () => {
      const count = async (from: number, to: number, state: PaymentState) =>
        (await countPaymentsBetween(store, from, to)).filter((item) => item.operator === 'MTN' && item.state === state).reduce((sum, item) => sum + item.count, 0);
      assert.equal(await count(now - hourMs + 1, now + 1, 'failed'), 8, 'the last hour: 8 failed');
      assert.equal(await count(now - hourMs + 1, now + 1, 'completed'), 0);
      assert.equal(await count(now - weekMs + 1, now - hourMs + 1, 'completed'), volume - 1, 'the week before it: every completed one');
      assert.equal(await count(now - weekMs + 1, now - hourMs + 1, 'failed'), 1, 'and the held one');
    });
  });
}
