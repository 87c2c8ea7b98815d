/**
 * The service client against the sandbox over real HTTP: each error mapping the service can
 * produce, and the lost-answer case, where re-posting the same body must find the pay-in (409)
 * rather than create a second one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox, type TestNumber } from '../../../src/sandbox/index.js';
import {
  AlreadyExistsError,
  AmountOutOfRangeError,
  createServiceClient,
  ServiceNetworkError,
  OtpRequiredError,
  RedirectUrlsRequiredError,
  TimeoutError,
  UnauthorizedError,
  UpstreamStatusError,
  ValidationError,
  type ServiceClient,
} from '../../../src/server/service-client/index.js';

let sandbox: RunningSandbox;
let service: ServiceClient;
let orderCounter = 0;
const nextOrderId = () => `client-test-${Date.now()}-${++orderCounter}`;

function numberFor(predicate: (entry: TestNumber) => boolean): TestNumber {
  const found = sandbox.control.testNumbers().find(predicate);
  assert.ok(found, 'the sandbox lists a test number of this kind');
  return found;
}

/** Called when the sandbox takes an armed hang: the request has reached it. */
let hangTaken = () => {};

before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 20, log: (line) => line.includes('injected fault hang') && hangTaken() });
  service = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 1000, retries: { attempts: 2, baseDelayMs: 1 } });
});
after(async () => sandbox.close());

describe('service client against the sandbox', () => {
  it('discovers the corridors of a number, with decimals and bounds', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const answer = await service.corridors(push.phoneNumber);
    assert.ok(answer.operators.length > 0);
    for (const operator of answer.operators) assert.ok(operator.currencies[0]!.decimalPlaces >= 0);
  });

  it('lists operators and countries', async () => {
    const countries = await service.countries();
    assert.ok(countries.countries.length >= 4);
    const operators = await service.operators(countries.countries[0]!.code);
    assert.ok(operators.operators.length > 0);
  });

  it('previews fees with the workflow', async () => {
    const otp = numberFor((entry) => entry.workflow === 'pre_authorized');
    const { operators } = await service.corridors(otp.phoneNumber);
    const currency = operators[0]!.currencies[0]!.code;
    const preview = await service.previewPayIn({ phoneNumber: otp.phoneNumber, currencyCode: currency, amount: '5000' });
    assert.equal(preview.workflowType, 'pre_authorized');
  });

  it('accepts a push pay-in as pending', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const { operators } = await service.corridors(push.phoneNumber);
    const answer = await service.payIn({ orderId: nextOrderId(), amount: '5000', phoneNumber: push.phoneNumber, currencyCode: operators[0]!.currencies[0]!.code });
    assert.equal(answer.status, 'pending');
  });

  it('maps a missing OTP and missing redirect URLs to 422 errors, creating nothing', async () => {
    const otp = numberFor((entry) => entry.workflow === 'pre_authorized');
    // The overlay wallet is the sandbox's redirect corridor, forced by the exact `wallet` (§2.3).
    const redirect = numberFor((entry) => entry.country === 'BJ' && entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const before = sandbox.control.transactions().length;
    const otpCurrency = (await service.corridors(otp.phoneNumber)).operators[0]!.currencies[0]!.code;
    await assert.rejects(service.payIn({ orderId: nextOrderId(), amount: '5000', phoneNumber: otp.phoneNumber, currencyCode: otpCurrency }), OtpRequiredError);
    const redirectCurrency = (await service.corridors(redirect.phoneNumber)).operators[0]!.currencies[0]!.code;
    await assert.rejects(service.payIn({ orderId: nextOrderId(), amount: '5000', phoneNumber: redirect.phoneNumber, currencyCode: redirectCurrency, operatorCode: 'wallet' }), RedirectUrlsRequiredError);
    assert.equal(sandbox.control.transactions().length, before);
  });

  it('maps excess decimals to ValidationError and an amount out of bounds to AmountOutOfRangeError', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const operator = (await service.corridors(push.phoneNumber)).operators[0]!;
    const currency = operator.currencies[0]!;
    const tooPrecise = currency.decimalPlaces === 0 ? '5000.5' : '5000.555';
    await assert.rejects(service.payIn({ orderId: nextOrderId(), amount: tooPrecise, phoneNumber: push.phoneNumber, currencyCode: currency.code }), ValidationError);
    const belowMinimum = operator.minAmountMajor > 1 ? '1' : undefined;
    if (belowMinimum) {
      await assert.rejects(service.payIn({ orderId: nextOrderId(), amount: belowMinimum, phoneNumber: push.phoneNumber, currencyCode: currency.code }), AmountOutOfRangeError);
    }
  });

  it('maps a wrong key to UnauthorizedError', async () => {
    const wrong = createServiceClient({ baseUrl: sandbox.url, apiKey: 'sk_test_wrong' });
    await assert.rejects(wrong.operators('BJ'), UnauthorizedError);
  });

  it('after a lost answer, a re-post of the same body gets 409 and exactly one transaction exists', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const currency = (await service.corridors(push.phoneNumber)).operators[0]!.currencies[0]!.code;
    const request = { orderId: nextOrderId(), amount: '5000', phoneNumber: push.phoneNumber, currencyCode: currency };
    sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in', times: 1 });
    const lost = await service.payIn(request).catch((error: unknown) => error);
    assert.ok(lost instanceof ServiceNetworkError, `got ${String(lost)}`);
    assert.equal(lost.outcomeUnknown, true);
    await assert.rejects(service.payIn(request), AlreadyExistsError);
    assert.equal(sandbox.control.transactions().filter((entry) => entry.orderId === request.orderId).length, 1);
  });

  it('reports a 500 on a pay-in as an unknown outcome, creating nothing', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const currency = (await service.corridors(push.phoneNumber)).operators[0]!.currencies[0]!.code;
    const request = { orderId: nextOrderId(), amount: '5000', phoneNumber: push.phoneNumber, currencyCode: currency };
    sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-in', times: 1 });
    const error = await service.payIn(request).catch((caught: unknown) => caught);
    assert.ok(error instanceof UpstreamStatusError);
    assert.equal(error.outcomeUnknown, true);
    // The safe move: re-post the same body. Nothing existed, so this one is accepted.
    assert.equal((await service.payIn(request)).status, 'pending');
  });

  it('times out a hanging pay-in, and a reset one is a network error; both unknown outcomes', async () => {
    const push = numberFor((entry) => entry.workflow === 'provider_auth' && entry.outcome === 'approve');
    const currency = (await service.corridors(push.phoneNumber)).operators[0]!.currencies[0]!.code;
    // A second of timeout, and the reset armed only once the sandbox has held the hung request: files
    // run side by side on a loaded machine, where 150 ms ran out before the request arrived, the
    // hang stayed armed, and the reset's call below was the one that hung (a TimeoutError).
    const quick = createServiceClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 1000 });
    const taken = new Promise<void>((resolve) => (hangTaken = resolve));
    sandbox.control.injectFault({ kind: 'hang', path: '/v1/pay-in', times: 1 });
    const hung = await quick.payIn({ orderId: nextOrderId(), amount: '5000', phoneNumber: push.phoneNumber, currencyCode: currency }).catch((caught: unknown) => caught);
    assert.ok(hung instanceof TimeoutError, `got ${String(hung)}`);
    assert.equal(hung.outcomeUnknown, true);
    await taken;
    sandbox.control.injectFault({ kind: 'reset', path: '/v1/pay-in', times: 1 });
    const reset = await quick.payIn({ orderId: nextOrderId(), amount: '5000', phoneNumber: push.phoneNumber, currencyCode: currency }).catch((caught: unknown) => caught);
    assert.ok(reset instanceof ServiceNetworkError, `got ${String(reset)}`);
    assert.equal(reset.outcomeUnknown, true);
  });

  it('retries a discovery call after a 500', async () => {
    sandbox.control.injectFault({ kind: 'status-500', path: '/v1/countries', times: 1 });
    const countries = await service.countries();
    assert.ok(countries.countries.length > 0);
  });
});
