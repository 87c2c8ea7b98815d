/**
 * Two companions on one store (the SQLite file, as two processes of a shop share it): each counts
 * its own events, so their counters add up to what happened once; the store-wide gauges are the
 * same number in both scrapes, so they are read with max() over instances (docs/metrics.md), and a
 * sum() would count them twice.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileStore } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { eventually, metricsToken, scrape } from './scrape.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };

describe('metrics of two companions on one store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-metrics-'));
  let a: Harness;
  let b: Harness;
  before(async () => {
    a = await startHarness({ metricsToken, metricsStoreGaugesEveryMs: 0, store: createFileStore({ dataDir }) });
    b = await startHarness({ metricsToken, metricsStoreGaugesEveryMs: 0, store: createFileStore({ dataDir }) });
  });
  after(async () => {
    await a.close();
    await b.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const pay = async (h: Harness, phoneNumber: string) => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId);
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber, useWallet: false } })).status, 200);
    return orderId;
  };

  it('counts each event in the process it happened in, and reports the store-wide gauges alike in both', async () => {
    const paid = await pay(a, push.approve);
    const declined = await pay(b, push.decline);
    await pay(a, push.noAnswer);
    await pay(b, push.noAnswer);
    await a.waitFor(paid, (view) => view.state === 'completed');
    await b.waitFor(declined, (view) => view.state === 'failed');
    await eventually(async () => {
      const [sa, sb] = await Promise.all([scrape(a.base), scrape(b.base)]);
      const applied = sa.value('momo_notifications_received_total', { result: 'applied' }) + sb.value('momo_notifications_received_total', { result: 'applied' });
      assert.equal(applied, 2);
      assert.equal(sa.value('momo_merchant_delivery_backlog', { sink: 'callback' }), 0);
    });
    const [sa, sb] = await Promise.all([scrape(a.base), scrape(b.base)]);
    const operator = (await a.companion.getPayment(paid))!.operator!.name;
    const counter = (scrape: typeof sa, state: string) => scrape.find('momo_payments_total', { state, operator }).reduce((sum, sample) => sum + sample.value, 0);

    // Counters: each process its own; the sum over both is what happened.
    assert.deepEqual([counter(sa, 'started'), counter(sb, 'started')], [2, 2]);
    assert.deepEqual([counter(sa, 'completed'), counter(sb, 'completed')], [1, 0]);
    assert.deepEqual([counter(sa, 'failed'), counter(sb, 'failed')], [0, 1]);
    // Either process may deliver an order's onPaymentUpdate (the store's lease decides): the sum is
    // every update once.
    const delivered = sa.value('momo_merchant_deliveries_total', { sink: 'callback', result: 'delivered' }) + sb.value('momo_merchant_deliveries_total', { sink: 'callback', result: 'delivered' });
    assert.equal(delivered, a.updates.length + b.updates.length);

    // Store-wide gauges: the same in both scrapes. max() over instances is the store's number; sum() doubles it.
    for (const name of ['momo_payments_open', 'momo_inbox_unprocessed']) assert.equal(sa.value(name), sb.value(name), name);
    assert.equal(Math.max(sa.value('momo_payments_open'), sb.value('momo_payments_open')), 2);
    assert.equal(sa.value('momo_payments_open') + sb.value('momo_payments_open'), 4, 'what sum() would wrongly say');
    for (const window of ['1h', 'usual']) {
      assert.equal(sa.find('momo_operator_finished_payments', { operator, window })[0]?.value, sb.find('momo_operator_finished_payments', { operator, window })[0]?.value);
    }
    assert.equal(sa.value('momo_operator_completion_ratio', { operator, window: '1h' }), 0.5);
    assert.equal(sb.value('momo_operator_completion_ratio', { operator, window: '1h' }), 0.5);
  });
});
