/**
 * The contract's cases of service order ids (part of `momo-checkout/store-contract`): a payment
 * attempt's id and a refund's pay-out id belong to one order, for good. A store refuses the write
 * that would give one to another order, or a new checkout whose order id is one of them, and says
 * whose it is, so that no notification is ever applied to the wrong order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreConflictError } from '../store.js';
import { sampleRecord, sampleRefund, withPayment, withRefund } from './samples.js';
import type { MakeStore } from './samples.js';

export function runServiceOrderIdsContract(makeStore: MakeStore): void {
  const setup = async () => ({ store: await makeStore({ now: () => 1_000_000 }) });

  describe('service order ids', () => {
    it('never gives a service order id that belongs to one order to another', async () => {
      const { store } = await setup();
      const owner = sampleRecord();
      const other = sampleRecord();
      await store.createIfAbsent(owner);
      await store.createIfAbsent(other);
      assert.equal(await store.compareAndSet(owner.orderId, 0, withPayment(owner, 'shared-service-id')), true);
      await assert.rejects(store.compareAndSet(other.orderId, 0, withPayment(other, 'shared-service-id')), StoreConflictError);
      assert.equal((await store.getByServiceOrderId('shared-service-id'))?.orderId, owner.orderId);
      assert.equal((await store.getByOrderId(other.orderId))?.payment, null, 'the refused write changed nothing');
      await store.close?.();
    });

    it('refuses a new checkout whose order id is already another order\'s attempt id, naming that order', async () => {
      const { store } = await setup();
      const x = sampleRecord();
      await store.createIfAbsent(x);
      assert.equal(await store.compareAndSet(x.orderId, 0, withPayment(x, `${x.orderId}-a2`, 2)), true);
      const late = sampleRecord({ orderId: `${x.orderId}-a2` });
      await assert.rejects(store.createIfAbsent(late), (error: unknown) => {
        assert.ok(error instanceof StoreConflictError);
        assert.deepEqual(error.taken, { serviceOrderId: late.orderId, owner: x.orderId });
        return true;
      });
      assert.equal(await store.getByOrderId(late.orderId), undefined, 'nothing stored');
      assert.equal(await store.getByTokenHash(late.tokenHash), undefined);
      assert.equal((await store.getByServiceOrderId(late.orderId))?.orderId, x.orderId);
      await store.close?.();
    });

    it('refuses an attempt id that is another checkout\'s order id, and gives the next free one', async () => {
      const { store } = await setup();
      const x = sampleRecord();
      // The merchant's own order "X-a2", created before X needs a second attempt.
      const merchants = sampleRecord({ orderId: `${x.orderId}-a2` });
      await store.createIfAbsent(x);
      await store.createIfAbsent(merchants);
      await assert.rejects(store.compareAndSet(x.orderId, 0, withPayment(x, merchants.orderId, 2)), (error: unknown) => {
        assert.ok(error instanceof StoreConflictError);
        assert.deepEqual(error.taken, { serviceOrderId: merchants.orderId, owner: merchants.orderId });
        return true;
      });
      assert.equal((await store.getByOrderId(x.orderId))?.payment, null, 'the refused write changed nothing');
      assert.equal(await store.getByServiceOrderId(merchants.orderId), undefined);
      assert.equal(await store.compareAndSet(x.orderId, 0, withPayment(x, `${x.orderId}-a3`, 2)), true);
      assert.equal((await store.getByServiceOrderId(`${x.orderId}-a3`))?.orderId, x.orderId);
      // The merchant's order still pays under its own id.
      assert.equal(await store.compareAndSet(merchants.orderId, 0, withPayment(merchants, merchants.orderId)), true);
      assert.equal((await store.getByServiceOrderId(merchants.orderId))?.orderId, merchants.orderId);
      await store.close?.();
    });

    it('gives one id to one order when a new checkout and another order\'s attempt race for it', async () => {
      const { store } = await setup();
      for (let round = 0; round < 10; round++) {
        const x = sampleRecord();
        await store.createIfAbsent(x);
        const contested = sampleRecord({ orderId: `${x.orderId}-a2` });
        const create = () => store.createIfAbsent(contested).then((result) => result.created);
        const claim = () => store.compareAndSet(x.orderId, 0, withPayment(x, contested.orderId, 2));
        // Each side goes first in half the rounds.
        const outcomes = await Promise.allSettled(round % 2 === 0 ? [create(), claim()] : [claim(), create()]);
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length;
        const refused = outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof StoreConflictError).length;
        assert.deepEqual({ won, refused }, { won: 1, refused: 1 }, `round ${round}: one holds ${contested.orderId}, the other is refused`);
        const checkout = await store.getByOrderId(contested.orderId);
        const owner = (await store.getByServiceOrderId(contested.orderId))?.orderId;
        assert.ok(checkout === undefined ? owner === x.orderId : owner === undefined, `round ${round}: the store agrees with the winner`);
      }
      await store.close?.();
    });
  });

  describe('refund pay-out ids', () => {
    it('indexes a refund by its pay-out order id, and keeps it from any other order or new checkout', async () => {
      const { store } = await setup();
      const x = sampleRecord();
      const other = sampleRecord();
      await store.createIfAbsent(x);
      await store.createIfAbsent(other);
      const paid = withPayment(x, x.orderId, 1, 'completed');
      assert.equal(await store.compareAndSet(x.orderId, 0, paid), true);
      assert.equal(await store.compareAndSet(x.orderId, 1, withRefund(paid, sampleRefund('rf-1', `${x.orderId}-r1`))), true);
      assert.equal((await store.getByServiceOrderId(`${x.orderId}-r1`))?.orderId, x.orderId);
      assert.equal((await store.getByServiceOrderId(x.orderId))?.orderId, x.orderId, 'the attempt id stays indexed');
      // Neither another order's attempt, nor its refund, nor a new checkout may take it.
      await assert.rejects(store.compareAndSet(other.orderId, 0, withPayment(other, `${x.orderId}-r1`)), StoreConflictError);
      await assert.rejects(store.compareAndSet(other.orderId, 0, withRefund(withPayment(other, other.orderId), sampleRefund('rf-1', `${x.orderId}-r1`))), StoreConflictError);
      await assert.rejects(store.createIfAbsent(sampleRecord({ orderId: `${x.orderId}-r1` })), StoreConflictError);
      assert.equal((await store.getByOrderId(other.orderId))?.payment, null, 'the refused writes changed nothing');
      await store.close?.();
    });

    it('refuses a pay-out id that is another checkout\'s order id', async () => {
      const { store } = await setup();
      const x = sampleRecord();
      const merchants = sampleRecord({ orderId: `${x.orderId}-r1` });
      await store.createIfAbsent(x);
      await store.createIfAbsent(merchants);
      const paid = withPayment(x, x.orderId, 1, 'completed');
      assert.equal(await store.compareAndSet(x.orderId, 0, paid), true);
      await assert.rejects(store.compareAndSet(x.orderId, 1, withRefund(paid, sampleRefund('rf-1', merchants.orderId))), (error: unknown) => {
        assert.ok(error instanceof StoreConflictError);
        assert.deepEqual(error.taken, { serviceOrderId: merchants.orderId, owner: merchants.orderId });
        return true;
      });
      assert.equal((await store.getByOrderId(x.orderId))?.refunds, undefined, 'the refused write changed nothing');
      assert.equal(await store.compareAndSet(x.orderId, 1, withRefund(paid, sampleRefund('rf-1', `${x.orderId}-r2`))), true);
      assert.equal((await store.getByServiceOrderId(`${x.orderId}-r2`))?.orderId, x.orderId);
      await store.close?.();
    });
  });
}
