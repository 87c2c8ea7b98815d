/**
 * A steady stream of the service's notifications through the proxy, and what became of each.
 *
 * The payments are made first, as payers make them, then settled at a steady rate through the
 * sandbox's control surface (test/support/steady-payments.ts); the sandbox sends each one's
 * notification once, through the proxy, as the service does (one attempt, no retry). Afterwards: the sandbox's record of every attempt (a refused, cut or non-2xx one is
 * lost), each payment's state in the store, and what the merchant's endpoint was told.
 */
import assert from 'node:assert/strict';
import type { DeliveryResult } from '../../src/sandbox/index.js';
import { companionDefaults } from '../../src/server/model/option-defaults.js';
import type { Fleet, FleetProcess } from './fleet.js';

/** `settle` (test/support/steady-payments.ts) for the fleet's sandbox, through its control surface over HTTP. */
export function settleThrough(fleet: Fleet): (orderId: string) => Promise<void> {
  return async (orderId) => {
    const answer = await fetch(`${fleet.sandboxUrl}/_sandbox/settle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fleet.sandboxApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, status: 'completed' }),
    });
    assert.equal(answer.status, 200, await answer.text());
  };
}

/** The sandbox's attempts for `orderIds`: one each, and those that failed (refused, cut, non-2xx). */
export async function deliveriesOf(fleet: Fleet, orderIds: readonly string[]): Promise<{ attempts: DeliveryResult[]; lost: DeliveryResult[] }> {
  const answer = await fetch(`${fleet.sandboxUrl}/_sandbox/deliveries`, { headers: { authorization: `Bearer ${fleet.sandboxApiKey}` } });
  const { deliveries } = ((await answer.json()) as { data: { deliveries: DeliveryResult[] } }).data;
  const wanted = new Set(orderIds);
  const attempts = deliveries.filter((delivery) => wanted.has(delivery.orderId));
  assert.equal(attempts.length, orderIds.length, 'one attempt per settled payment: the service never retries');
  return { attempts, lost: attempts.filter((delivery) => !delivery.ok) };
}

/**
 * Every notification of the stream delivered, each payment completed in the store (read through
 * `process`), and the merchant told of each completion once: one webhook-id per order and state,
 * sent once (a graceful stop lets a delivery under way finish; `allowRedelivery` for a kill, whose
 * delivery under way is sent again under the same webhook-id, which the merchant recognises).
 */
export async function provesNothingLost(fleet: Fleet, process: FleetProcess, orderIds: readonly string[], options: { allowRedelivery?: boolean } = {}): Promise<void> {
  // A killed process may hold an order's delivery lease (deliveries/delivery-worker.ts: three
  // delivery timeouts, 30 s): that order's merchant notification waits for it to lapse, then the
  // next poll. A kept notification it had not applied waits for a round of maintenance (30 s) or
  // its restart. Waiting 20 s failed once in three runs under load.
  const settleMs = options.allowRedelivery ? 3 * companionDefaults.deliveryTimeoutMs + companionDefaults.maintenanceIntervalMs : 20_000;
  const { lost } = await deliveriesOf(fleet, orderIds);
  assert.deepEqual(lost.map((delivery) => `${delivery.orderId}: ${delivery.error}`), [], `every notification delivered through the proxy (${lost.length} of ${orderIds.length} lost)\n${fleet.logs()}`);
  const states = new Map<string, string>();
  await fleet.until('every payment completed in the store', async () => {
    await Promise.all(
      orderIds.filter((orderId) => states.get(orderId) !== 'completed').map(async (orderId) => {
        const answer = await fetch(`${process.url}/momo/server/payments/${orderId}`, { headers: { authorization: `Bearer ${fleet.serverSecret}` } });
        states.set(orderId, ((await answer.json()) as { payment: { state: string } }).payment.state);
      }),
    );
    return orderIds.every((orderId) => states.get(orderId) === 'completed');
  }, settleMs);
  const told = (orderId: string) => fleet.merchant.received().filter((update) => update.orderId === orderId && update.state === 'completed');
  await fleet.until('the merchant told of every completion', async () => orderIds.every((orderId) => told(orderId).length > 0), settleMs);
  for (const orderId of orderIds) {
    const ids = told(orderId).map((update) => update.webhookId);
    assert.equal(new Set(ids).size, 1, `${orderId}: one merchant notification of its completion (${ids.join(', ')})`);
    if (!options.allowRedelivery) assert.equal(ids.length, 1, `${orderId}: its completion sent to the merchant once (${ids.length} times)`);
  }
}
