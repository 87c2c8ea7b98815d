/**
 * The contract's case of a delivery's kind (part of `momo-checkout/store-contract`, issue 42): a
 * store keeps the `kind` written on each queued and settled delivery (model/notification-kinds.ts)
 * with the rest of the record, and hands a delivery stored without one (by 0.4.0 and before, still
 * waiting in a store after an upgrade) back as it was, so that `notificationOf` reads it by the
 * field its payload is under. A store of one's own that keeps deliveries in columns of its own must
 * keep both, or a refund's notification would go out as a payment's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationOf, queuedDeliveries, type CheckoutRecord, type DeliveryRecord, type SettledDelivery } from '../../model/records.js';
import { refundView, type RefundRecord, type RefundUpdate } from '../../model/refund.js';
import type { MakeStore } from './samples.js';

/** The contract's record builders (store-contract.ts), handed in: this file is imported by it. */
export interface KindSamples {
  sampleRecord(overrides?: Partial<CheckoutRecord>): CheckoutRecord;
  sampleDelivery(orderId: string, version: number, sink: DeliveryRecord['sink'], nextAttemptAt: number): DeliveryRecord;
  sampleRefund(refundId: string, payoutOrderId: string): RefundRecord;
}

export function runDeliveryKindsContract(makeStore: MakeStore, { sampleRecord, sampleDelivery, sampleRefund }: KindSamples): void {
  describe('deliveries of each kind', () => {
    it('keeps the kind written on each delivery, and gives one stored without a kind (0.4.0) back as it was', async () => {
      const clock = 1_000_000;
      const store = await makeStore({ now: () => clock });
      const record = sampleRecord();
      await store.createIfAbsent(record);
      const { orderId } = record;
      const refund: RefundUpdate = {
        orderId,
        idempotencyKey: `${orderId}.life.refund.rf-1.1`,
        refund: refundView(sampleRefund('rf-1', `${orderId}-r1`), 'XOF'),
        previousState: 'sending',
      };
      // 0.4.0's shapes: the payload under `update` or `refund`, no `kind`.
      const paymentOf040 = sampleDelivery(orderId, 1, 'webhook', clock - 30);
      const refundOf040: DeliveryRecord = { id: refund.idempotencyKey, sink: 'callback', refund, createdAt: 0, attempts: 0, nextAttemptAt: clock - 20 };
      const payment = { ...sampleDelivery(orderId, 2, 'webhook', 0).update!, idempotencyKey: `${orderId}.2` };
      const deliveries = [paymentOf040, refundOf040, ...queuedDeliveries('payment', payment, ['webhook', 'callback'], clock - 10), ...queuedDeliveries('refund', refund, ['webhook'], clock)];
      const [settledRefund] = queuedDeliveries('refund', refund, ['webhook'], clock - 40);
      const settled: SettledDelivery[] = [{ ...paymentOf040, delivered: true, settledAt: clock - 35 }, { ...settledRefund!, delivered: true, settledAt: clock - 35 }];
      await store.compareAndSet(orderId, 0, { ...record, revision: 1, deliveries, settledDeliveries: settled });

      assert.deepEqual(await store.dueDeliveries(clock, 1_000), [orderId], 'the deliveries without a kind are due like the others');
      const read = (await store.getByOrderId(orderId))!;
      assert.deepEqual(read.deliveries, deliveries, 'every delivery as written, with its kind or without one');
      assert.deepEqual(read.settledDeliveries, settled);
      assert.deepEqual(
        read.deliveries.map((delivery) => [delivery.kind ?? 'none', notificationOf(delivery).kind]),
        [['none', 'payment'], ['none', 'refund'], ['payment', 'payment'], ['payment', 'payment'], ['refund', 'refund']],
      );
      await store.close?.();
    });
  });
}
