/**
 * A steady stream of the service's notifications through the proxy, and what became of each.
 *
 * The payments are made first, as payers make them (a checkout from the server API, a pay-in from
 * the page's pay route), with a number whose payer never answers: each waits at the sandbox. The
 * stream then settles them at a steady rate through the sandbox's control surface, and the sandbox
 * sends each one's notification once, through the proxy, as the service does (one attempt, no
 * retry). Afterwards: the sandbox's record of every attempt (a refused, cut or non-2xx one is
 * lost), each payment's state in the store, and what the merchant's endpoint was told.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Fleet, FleetProcess } from './fleet.js';

/** The sandbox's Benin MTN number whose payer never answers: the payment stays pending until settled. */
const neverAnswers = '+2290196000003';

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  }));
}

/**
 * `count` payments waiting at the service, made through `process` directly (the server API is not
 * public). Each pay comes from a payer address of its own (X-Forwarded-For, believed from
 * 127.0.0.1 as the guide's MOMO_TRUST_PROXY says), as many payers would: one address is limited to
 * 120 calls a minute.
 */
export async function waitingPayments(fleet: Fleet, process: FleetProcess, count: number): Promise<string[]> {
  const tag = randomBytes(4).toString('hex');
  const orderIds = Array.from({ length: count }, (_, index) => `fleet-${tag}-${index}`);
  await inParallel(orderIds, 8, async (orderId, index) => {
    const created = await fetch(`${process.url}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fleet.serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { token } = (await created.json()) as { token: string };
    const paid = await fetch(`${process.url}/momo/checkout/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: fleet.origin, 'content-type': 'application/json', 'x-forwarded-for': `10.77.${index >> 8}.${index & 255}` },
      body: JSON.stringify({ phoneNumber: neverAnswers, useWallet: false }),
    });
    assert.equal(paid.status, 200, await paid.clone().text());
  });
  return orderIds;
}

export interface Stream {
  /** The orders settled so far, in order. */
  settled: string[];
  /** Stops settling and waits for every settle (and so every delivery attempt) to finish. */
  stop(): Promise<string[]>;
}

/**
 * Settles `orderIds` one after the other, `perSecond` a second, each at its own time whatever the
 * others' answers take. Fails the test when it runs out before `stop()`: the stream must span the
 * whole disruption.
 */
export function settleSteadily(fleet: Fleet, orderIds: readonly string[], perSecond: number): Stream {
  const settled: string[] = [];
  const answers: Array<Promise<void>> = [];
  const started = Date.now();
  let stopped = false;
  let ranOut = false;
  let timer: NodeJS.Timeout | undefined;
  const settle = async (orderId: string) => {
    const answer = await fetch(`${fleet.sandboxUrl}/_sandbox/settle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fleet.sandboxApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, status: 'completed' }),
    });
    assert.equal(answer.status, 200, await answer.text());
  };
  const tick = () => {
    if (stopped) return;
    if (settled.length === orderIds.length) return void (ranOut = true);
    const orderId = orderIds[settled.length]!;
    settled.push(orderId);
    answers.push(settle(orderId));
    timer = setTimeout(tick, Math.max(0, started + (settled.length * 1000) / perSecond - Date.now()));
  };
  tick();
  return {
    settled,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(answers);
      assert.ok(!ranOut, `the stream ran out of payments (${orderIds.length}) before the disruption ended: make more`);
      return settled;
    },
  };
}

interface Delivery {
  orderId: string;
  status: string;
  ok: boolean;
  httpStatus?: number;
  error?: string;
  at: number;
}

/** The sandbox's attempts for `orderIds`: one each, and those that failed (refused, cut, non-2xx). */
export async function deliveriesOf(fleet: Fleet, orderIds: readonly string[]): Promise<{ attempts: Delivery[]; lost: Delivery[] }> {
  const answer = await fetch(`${fleet.sandboxUrl}/_sandbox/deliveries`, { headers: { authorization: `Bearer ${fleet.sandboxApiKey}` } });
  const { deliveries } = ((await answer.json()) as { data: { deliveries: Delivery[] } }).data;
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
  }, 20_000);
  const told = (orderId: string) => fleet.merchant.received().filter((update) => update.orderId === orderId && update.state === 'completed');
  await fleet.until('the merchant told of every completion', async () => orderIds.every((orderId) => told(orderId).length > 0), 20_000);
  for (const orderId of orderIds) {
    const ids = told(orderId).map((update) => update.webhookId);
    assert.equal(new Set(ids).size, 1, `${orderId}: one merchant notification of its completion (${ids.join(', ')})`);
    if (!options.allowRedelivery) assert.equal(ids.length, 1, `${orderId}: its completion sent to the merchant once (${ids.length} times)`);
  }
}
