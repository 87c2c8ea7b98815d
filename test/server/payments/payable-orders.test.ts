/**
 * Issue 13 §1 and issue 11 §4: an order no payer could pay is refused when it is created, with a
 * `CheckoutError` whose code says why, as soon as the companion can know it from discovery; an
 * order created before that is refused at the payer's lookup with words for the payer ("contact
 * the shop") and an error in the merchant's log. A service that cannot be reached never blocks a
 * shop from creating its checkout.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CheckoutError, createCompanion, type Logger } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

// Sandbox catalogue: Vodacom (DR Congo) serves CDF and USD, 2 decimals each; Benin's operators
// take XOF (0 decimals) from 100.
const drcVodacom = '+243810000001';
const beninMtn = '+2290196000001';

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const none = () => {};
  return { errors, debug: none, info: none, warn: none, error: (message: string) => void errors.push(message) };
}

let h: Harness;
let log: ReturnType<typeof recordingLogger>;
before(async () => {
  log = recordingLogger();
  h = await startHarness({ setupChecksAtStart: false, log });
});
after(async () => h.close());

async function refusal(order: { orderId?: string; amount: string; currencyCode: string }, companion = h.companion): Promise<CheckoutError> {
  try {
    await companion.createCheckout({ orderId: order.orderId ?? newOrderId(), amount: order.amount, currencyCode: order.currencyCode });
  } catch (error) {
    assert.ok(error instanceof CheckoutError, `got ${String(error)}`);
    return error;
  }
  assert.fail(`${order.amount} ${order.currencyCode} was accepted`);
}

describe('createCheckout refuses what no payer could pay', () => {
  it('a currency the service serves in no country (EUR), naming the served ones; nothing is stored', async () => {
    const orderId = newOrderId();
    const error = await refusal({ orderId, amount: '10', currencyCode: 'EUR' });
    assert.equal(error.code, 'CURRENCY_NOT_SERVED');
    assert.match(error.message, /serves no country in EUR \(it serves CDF, USD, XAF, XOF\)/);
    assert.ok(log.errors.some((line) => line.includes(orderId) && line.includes('EUR')), 'and the merchant log says it');
    // The id is still free: the same order in a served currency is created.
    assert.ok((await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' })).token);
  });

  it('an amount with more decimals than the currency allows, once a lookup has told its decimals', async () => {
    const token = await h.checkout(newOrderId(), '10', 'USD');
    assert.equal((await h.json('/checkout/lookup', { token, body: { phoneNumber: drcVodacom } })).status, 200);

    const error = await refusal({ amount: '12.345', currencyCode: 'USD' });
    assert.equal(error.code, 'AMOUNT_PRECISION');
    assert.match(error.message, /more decimals than USD allows \(at most 2\)/);
    assert.ok((await h.companion.createCheckout({ orderId: newOrderId(), amount: '12.34', currencyCode: 'USD' })).token, 'two decimals are fine');
  });

  it('a fractional or too small XOF amount, once a lookup has told XOF decimals and minimums', async () => {
    const token = await h.checkout(newOrderId(), '5000', 'XOF');
    assert.equal((await h.json('/checkout/lookup', { token, body: { phoneNumber: beninMtn } })).status, 200);

    const fractional = await refusal({ amount: '5000.5', currencyCode: 'XOF' });
    assert.equal(fractional.code, 'AMOUNT_PRECISION');
    assert.match(fractional.message, /XOF allows \(none\)/);
    const tiny = await refusal({ amount: '1', currencyCode: 'XOF' });
    assert.equal(tiny.code, 'AMOUNT_BELOW_MINIMUM');
    assert.match(tiny.message, /the lowest is 100/);
    assert.ok((await h.companion.createCheckout({ orderId: newOrderId(), amount: '100', currencyCode: 'XOF' })).token, 'the minimum itself is fine');
  });

  it('malformed orders have a code too', async () => {
    const error = await refusal({ orderId: 'not an id!', amount: '5000', currencyCode: 'XOF' });
    assert.equal(error.code, 'INVALID_ORDER');
    const orderId = newOrderId();
    await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    assert.equal((await refusal({ orderId, amount: '6000', currencyCode: 'XOF' })).code, 'ORDER_CONFLICT');
  });
});

/**
 * The service's discovery answers with other `decimalPlaces` than the sandbox's catalogue (which
 * matches ISO 4217): what a service whose figure differs from ISO's looks like to the companion.
 */
function serviceSaying(decimals: Record<string, number>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input instanceof Request ? input.url : input).includes('/v1/corridors/available')) return response;
    const body = (await response.json()) as { data: { operators: Array<{ currencies: Array<{ code: string; decimalPlaces: number }> }> } };
    for (const operator of body.data.operators) for (const currency of operator.currencies) currency.decimalPlaces = decimals[currency.code] ?? currency.decimalPlaces;
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
}

describe('decimals on a fresh companion, before any lookup', () => {
  it("refuses 12.50 XOF at creation with ISO 4217's rule in the message; 1 XOF is accepted (no minimum is invented)", async () => {
    const fresh = await startHarness({ setupChecksAtStart: false, log: recordingLogger() });
    try {
      const error = await refusal({ amount: '12.50', currencyCode: 'XOF' }, fresh.companion);
      assert.equal(error.code, 'AMOUNT_PRECISION');
      assert.match(error.message, /amount 12\.5 has more decimals than XOF allows \(none: ISO 4217's minor units, until the payment service says its own figure\)/);
      assert.equal((await refusal({ amount: '12.345', currencyCode: 'USD' }, fresh.companion)).code, 'AMOUNT_PRECISION', 'USD: at most 2');
      assert.ok((await fresh.companion.createCheckout({ orderId: newOrderId(), amount: '12.34', currencyCode: 'USD' })).token);
      assert.ok((await fresh.companion.createCheckout({ orderId: newOrderId(), amount: '1', currencyCode: 'XOF' })).token, 'no minimum before the service says one');
    } finally {
      await fresh.close();
    }
  });

  it("once the service has said a currency's decimals, its figure rules, more or fewer than ISO's", async () => {
    // A service allowing 2 decimals in XOF (ISO: none) and none in USD (ISO: 2).
    const own = await startHarness({ setupChecksAtStart: false, log: recordingLogger(), fetch: serviceSaying({ XOF: 2, USD: 0 }) });
    try {
      assert.equal((await refusal({ amount: '12.50', currencyCode: 'XOF' }, own.companion)).code, 'AMOUNT_PRECISION', 'ISO first');
      for (const [currencyCode, phoneNumber] of [['XOF', beninMtn], ['USD', drcVodacom]] as const) {
        const token = await own.checkout(newOrderId(), '100', currencyCode);
        assert.equal((await own.json('/checkout/lookup', { token, body: { phoneNumber } })).status, 200);
      }
      assert.ok((await own.companion.createCheckout({ orderId: newOrderId(), amount: '1200.50', currencyCode: 'XOF' })).token, "the service's 2 decimals");
      const usd = await refusal({ amount: '12.50', currencyCode: 'USD' }, own.companion);
      assert.match(usd.message, /more decimals than USD allows \(none\)/, "the service's figure, without ISO's rule");
    } finally {
      await own.close();
    }
  });
});

describe('an order created before its currency was known', () => {
  it('is refused at the lookup with words for the payer, and an error in the merchant log', async () => {
    const fresh = recordingLogger();
    // ISO 4217 lets USD have 2 decimals, this service none: 1.5 USD passes creation, not the lookup.
    const own = await startHarness({ setupChecksAtStart: false, log: fresh, fetch: serviceSaying({ USD: 0 }) });
    try {
      const orderId = newOrderId();
      const token = await own.checkout(orderId, '1.5', 'USD');
      const lookup = await own.json('/checkout/lookup', { token, body: { phoneNumber: drcVodacom } });
      assert.equal(lookup.status, 400);
      assert.equal(lookup.body.error.code, 'AMOUNT_PRECISION', 'not AMOUNT_OUT_OF_RANGE: no other operator or number helps');
      assert.match(lookup.body.error.message, /cannot be paid as it stands.*Contact the shop/);
      assert.ok(fresh.errors.some((line) => line.includes(orderId) && /more decimals than USD allows \(0\)/.test(line)), fresh.errors.join('\n'));
      const pay = await own.json('/checkout/pay', { token, body: { phoneNumber: drcVodacom, useWallet: false } });
      assert.equal(pay.body.error.code, 'AMOUNT_PRECISION');
      assert.equal(own.sandbox.control.transaction(orderId), undefined, 'nothing was sent to the service');
      // From now on createCheckout knows: the next such order is refused at once.
      assert.equal((await refusal({ amount: '1.5', currencyCode: 'USD' }, own.companion)).code, 'AMOUNT_PRECISION');
    } finally {
      await own.close();
    }
  });
});

describe('a service that cannot be reached', () => {
  it('does not block creating a checkout', async () => {
    const port = await closedPort();
    const companion = createCompanion({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'sk_test_x',
      webhookSecrets: ['whsec_x'],
      publicUrl: 'http://127.0.0.1:1/momo',
      allowedOrigins: [],
      allowInsecureLocalUrls: true,
      setupChecksAtStart: false,
      serviceTimeoutMs: 200,
      log: recordingLogger(),
    });
    try {
      const created = await companion.createCheckout({ orderId: newOrderId(), amount: '10', currencyCode: 'EUR' });
      assert.ok(created.token, 'accepted: the pay flow refuses later if it must');
    } finally {
      await companion.close();
    }
  });
});

/** A port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('createCheckout while the service cannot be reached', () => {
  it('waits for the countries once, then creates checkouts at once for a while', async () => {
    const h = await startHarness({ setupChecksAtStart: false, discoveryCacheTtlMs: 1 });
    try {
      h.sandbox.control.injectFault({ kind: 'hang', path: '/v1/countries', times: 100 });
      const first = Date.now();
      await h.checkout();
      const firstMs = Date.now() - first;
      assert.ok(firstMs >= 2_500, `the first waited its budget (${firstMs} ms)`);
      const next = Date.now();
      for (let i = 0; i < 5; i++) await h.checkout();
      assert.ok(Date.now() - next < 2_000, 'the next ones did not wait again');
    } finally {
      await h.close();
    }
  });
});
