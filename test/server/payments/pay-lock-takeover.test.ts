/**
 * Issue 45: the pay lock is a lease its process renews, so a dead holder's lock is taken over
 * within seconds. A holder that is alive but paused past its lease (a frozen VM, a blocked event
 * loop) must then post nothing beside the process that took over: not another number under the
 * same order id, and not a false "held for support" from the 409 of the request the other process
 * posted for it. Two companions on one store; "paused" is the holder's calls to the store and the
 * service held at a gate while the store's clock moves past its lease (and past the old 60 s ttl).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { createCompanion, createMemoryStore, type CheckoutStore, type Companion } from '../../../src/server/index.js';
import { refundCompanionOptions } from '../refunds/fixtures/companion-options.js';

const first = '+2290196000003';
const another = '+2290196000110';

/** The holder's process: paused from the moment its call to `path` starts until `resume()`. */
function pausableProcess(store: CheckoutStore, path: string) {
  let paused = false;
  let resume!: () => void;
  const gate = new Promise<void>((resolve) => (resume = resolve));
  let reachedPause!: () => void;
  const reached = new Promise<void>((resolve) => (reachedPause = resolve));
  const pausedStore = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (paused) await gate;
        return value.apply(target, args);
      };
    },
  });
  const pausedFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === path && !paused) {
      paused = true;
      reachedPause();
      await gate;
    }
    return fetch(input, init);
  };
  return { store: pausedStore, fetch: pausedFetch, reached, resume };
}

describe('a pay holder paused past its lease, and the process that took the lock over', () => {
  let sandbox: RunningSandbox;
  const companions: Companion[] = [];
  /** Every pause's resume: a test that fails while its holder is paused leaves that call waiting, and a companion closes only once its calls end. */
  const resumes: Array<() => void> = [];
  before(async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 60_000, log: () => {} });
  });
  after(async () => {
    for (const resume of resumes) resume();
    for (const companion of companions) await companion.close();
    await sandbox?.close();
  });

  async function twoProcesses(pauseAt: string) {
    let skew = 0;
    const now = () => Date.now() + skew;
    const shared = createMemoryStore({ now });
    const paused = pausableProcess(shared, pauseAt);
    resumes.push(paused.resume);
    const a = createCompanion({ ...refundCompanionOptions(sandbox, paused.store), fetch: paused.fetch, now });
    const b = createCompanion({ ...refundCompanionOptions(sandbox, shared), now });
    companions.push(a, b);
    const orderId = `takeover-${companions.length}-${Date.now()}`;
    const { token } = await b.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    const pay = (companion: Companion, phoneNumber: string) =>
      companion.fetch(
        new Request('http://127.0.0.1:9/momo/checkout/pay', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' },
          body: JSON.stringify({ phoneNumber, useWallet: false }),
        }),
      );
    const payIns = () => sandbox.control.transactions().filter((entry) => entry.kind === 'payin' && entry.orderId.startsWith(orderId));
    // Past the lease, and past the 60 s the lock used to last.
    const lapse = () => (skew += 61_000);
    return { a, b, shared, orderId, pay, payIns, paused, lapse };
  }

  it('paused while it looks up the number: it writes nothing over the payment the other process sent, and posts nothing', async () => {
    const { a, b, shared, orderId, pay, payIns, paused, lapse } = await twoProcesses('/v1/corridors/available');
    const answerA = pay(a, first);
    await paused.reached;
    lapse();
    const answerB = await pay(b, another);
    assert.equal(answerB.status, 200, await answerB.clone().text());
    paused.resume();
    const late = await answerA;
    assert.equal(late.status, 200, await late.clone().text());
    assert.notEqual(((await late.json()) as { state: string }).state, 'unknown', 'the paused process reports the payment the other one sent');
    assert.deepEqual(payIns().map((entry) => entry.phoneNumber), [another], 'one pay-in, to the number the record names');
    const payment = (await shared.getByOrderId(orderId))!.payment!;
    assert.equal(payment.phoneNumber, another, 'the record still names the number the service collects from');
    assert.notEqual(payment.orderIdConflict, true);
  });

  it('paused right before its post: the 409 of the request the other process posted for it is not held for support', async () => {
    const { a, b, shared, orderId, pay, payIns, paused, lapse } = await twoProcesses('/v1/pay-in');
    const answerA = pay(a, first);
    await paused.reached;
    lapse();
    // The payer's page re-posts the same request; the process that takes over sends it.
    const answerB = await pay(b, first);
    assert.equal(((await answerB.json()) as { state: string }).state, 'pending');
    paused.resume();
    const late = await answerA;
    assert.equal(late.status, 200, await late.clone().text());
    assert.equal(payIns().length, 1, 'one pay-in');
    const payment = (await shared.getByOrderId(orderId))!.payment!;
    assert.notEqual(payment.orderIdConflict, true, 'not held for support: the transaction is this order’s');
    assert.equal(payment.state, 'pending');
  });
});
