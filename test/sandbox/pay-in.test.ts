import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandbox } from '../../src/sandbox/index.js';
import { request } from './helpers.js';

const quiet = () => {};
let counter = 0;
const newOrder = () => `order-${++counter}`;

function setup() {
  const sandbox = createSandbox({ log: quiet, pushDelayMs: 10_000 });
  const payIn = async (body: string | object) => {
    const response = await sandbox.fetch(request(sandbox.apiKey, '/v1/pay-in', { body }));
    return { status: response.status, body: (await response.json()) as any };
  };
  return { sandbox, payIn };
}

/** A raw body, so the amount's text is exactly what the test writes. */
const raw = (orderId: string, amount: string, phone: string, currency: string, extra = '') =>
  `{"orderId":"${orderId}","amount":${amount},"phoneNumber":"${phone}","currencyCode":"${currency}"${extra}}`;

describe('POST /v1/pay-in: acceptance (§4.1, §2.5)', () => {
  it('answers 200 pending with orderId, a UUID transactionId and a message, and records the transaction', async () => {
    const { sandbox, payIn } = setup();
    const orderId = newOrder();
    const { status, body } = await payIn({ orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    assert.equal(status, 200);
    assert.equal(body.success, true);
    assert.equal(body.data.orderId, orderId);
    assert.equal(body.data.status, 'pending');
    assert.match(body.data.transactionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(typeof body.data.message, 'string');
    assert.equal('authorizationUrl' in body.data, false);
    const transaction = sandbox.control.transaction(orderId)!;
    assert.equal(transaction.kind, 'payin');
    assert.equal(transaction.operatorCode, 'mtn');
    assert.equal(transaction.workflow, 'provider_auth');
    assert.equal(transaction.amount, '5000');
    sandbox.control.reset();
  });

  it('answers 409 without a code when the orderId is reused (§7)', async () => {
    const { sandbox, payIn } = setup();
    const orderId = newOrder();
    const body = { orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF' };
    assert.equal((await payIn(body)).status, 200);
    const second = await payIn(body);
    assert.equal(second.status, 409);
    assert.equal(second.body.success, false);
    assert.equal('code' in second.body, false);
    assert.equal(sandbox.control.transactions().length, 1);
    sandbox.control.reset();
  });
});

describe('POST /v1/pay-in: amounts counted on the raw text (§2.1)', () => {
  it('refuses 5000.0 for XOF (0 decimals) and never rounds it', async () => {
    const { sandbox, payIn } = setup();
    const { status, body } = await payIn(raw(newOrder(), '5000.0', '+2290196000001', 'XOF'));
    assert.equal(status, 400);
    assert.equal(body.code, 'VALIDATION_ERROR');
    assert.match(body.message, /decimal/);
    assert.equal(sandbox.control.transactions().length, 0);
  });

  it('accepts 12.5 and 12.50 for USD (2 decimals) and refuses 12.505', async () => {
    const { payIn } = setup();
    assert.equal((await payIn(raw(newOrder(), '12.5', '+243810000001', 'USD'))).status, 200);
    assert.equal((await payIn(raw(newOrder(), '12.50', '+243810000001', 'USD'))).status, 200);
    const refused = await payIn(raw(newOrder(), '12.505', '+243810000001', 'USD'));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'VALIDATION_ERROR');
  });

  it('refuses an amount sent as a string, zero or negative', async () => {
    const { payIn } = setup();
    for (const amount of ['"5000"', '0', '-5000']) {
      const { status, body } = await payIn(raw(newOrder(), amount, '+2290196000001', 'XOF'));
      assert.equal(status, 400, amount);
      assert.equal(body.code, 'VALIDATION_ERROR', amount);
    }
  });

  it('answers AMOUNT_OUT_OF_RANGE outside the (operator, currency) bounds, and no ceiling when max is null', async () => {
    const { payIn } = setup();
    const low = await payIn({ orderId: newOrder(), amount: 99, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    assert.equal(low.status, 400);
    assert.equal(low.body.code, 'AMOUNT_OUT_OF_RANGE');
    const high = await payIn({ orderId: newOrder(), amount: 2000001, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    assert.equal(high.body.code, 'AMOUNT_OUT_OF_RANGE');
    // Same operator, other currency, other bounds: 0.5 USD is fine, 0.4 is not.
    assert.equal((await payIn(raw(newOrder(), '0.5', '+243810000001', 'USD'))).status, 200);
    assert.equal((await payIn(raw(newOrder(), '0.4', '+243810000001', 'USD'))).body.code, 'AMOUNT_OUT_OF_RANGE');
    // Airtel CD has maxAmountMajor null.
    assert.equal((await payIn({ orderId: newOrder(), amount: 9_000_000, phoneNumber: '+243970000001', currencyCode: 'USD' })).status, 200);
  });

  it('refuses a currency the resolved operator does not serve', async () => {
    const { payIn } = setup();
    const { status, body } = await payIn({ orderId: newOrder(), amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XAF' });
    assert.equal(status, 400);
    assert.equal(body.code, 'VALIDATION_ERROR');
  });
});

describe('POST /v1/pay-in: field validation (§2.2, §2.3)', () => {
  it('refuses invalid JSON, a missing orderId and a non-E.164 number with VALIDATION_ERROR', async () => {
    const { payIn } = setup();
    const cases: Array<string | object> = [
      '{"orderId":',
      '[1,2]',
      { amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF' },
      { orderId: newOrder(), amount: 5000, phoneNumber: '+229 01 96 00 00 01', currencyCode: 'XOF' },
      { orderId: newOrder(), amount: 5000, phoneNumber: '0196000001', currencyCode: 'XOF' },
      { orderId: newOrder(), amount: 5000, phoneNumber: '+2290196000001' },
      { orderId: newOrder(), amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: 'ftp://x' },
    ];
    for (const body of cases) {
      const answer = await payIn(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.code, 'VALIDATION_ERROR');
    }
  });

  it('accepts an http:// webhookUrl at validation (§2.3: refused only at emission)', async () => {
    const { payIn } = setup();
    const answer = await payIn({ orderId: newOrder(), amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: 'http://example.test/hook' });
    assert.equal(answer.status, 200);
  });
});

describe('POST /v1/pay-in: 422 then the same orderId (§7, assumptions.md §422)', () => {
  it('answers OTP_REQUIRED with the exact 422 body, creates nothing, then accepts the same orderId with the code', async () => {
    const { sandbox, payIn } = setup();
    const orderId = newOrder();
    const body = { orderId, amount: 5000, phoneNumber: '+2290194000001', currencyCode: 'XOF' };
    const first = await payIn(body);
    assert.equal(first.status, 422);
    assert.deepEqual(Object.keys(first.body).sort(), ['code', 'data', 'message', 'status', 'success']);
    assert.equal(first.body.success, false);
    assert.equal(first.body.code, 'OTP_REQUIRED');
    assert.equal(first.body.status, 'OTP_REQUIRED');
    assert.deepEqual(first.body.data, { workflow: 'pre_authorized' });
    assert.equal(sandbox.control.transactions().length, 0);
    const second = await payIn({ ...body, otp: '123456' });
    assert.equal(second.status, 200);
    assert.equal(sandbox.control.transaction(orderId)?.workflow, 'pre_authorized');
  });

  it('refuses a wrong code with 400 "the operator refused this code", creates nothing, and the payer can retry', async () => {
    const { sandbox, payIn } = setup();
    const orderId = newOrder();
    const body = { orderId, amount: 5000, phoneNumber: '+2250700000001', currencyCode: 'XOF' };
    const wrong = await payIn({ ...body, otp: '000000' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'VALIDATION_ERROR');
    assert.match(wrong.body.message, /the operator refused this code/);
    assert.equal(sandbox.control.transactions().length, 0);
    assert.equal((await payIn({ ...body, otp: '123456' })).status, 200);
  });

  it('resolves the workflow from the amount too: MTN CI pushes, but wants a code above 500000', async () => {
    const { payIn } = setup();
    assert.equal((await payIn({ orderId: newOrder(), amount: 500000, phoneNumber: '+2250500000001', currencyCode: 'XOF' })).status, 200);
    const big = await payIn({ orderId: newOrder(), amount: 500001, phoneNumber: '+2250500000001', currencyCode: 'XOF' });
    assert.equal(big.status, 422);
    assert.equal(big.body.code, 'OTP_REQUIRED');
  });

  it('operatorCode "wallet" forces the overlay wallet: 422 REDIRECT_URLS_REQUIRED, then 200 with both URLs', async () => {
    const { sandbox, payIn } = setup();
    const orderId = newOrder();
    const body = { orderId, amount: 5000, phoneNumber: '+2250100000001', currencyCode: 'XOF', operatorCode: 'wallet' };
    const first = await payIn(body);
    assert.equal(first.status, 422);
    assert.equal(first.body.code, 'REDIRECT_URLS_REQUIRED');
    assert.equal(first.body.status, 'REDIRECT_URLS_REQUIRED');
    assert.deepEqual(first.body.data, { workflow: 'redirect_url' });
    const half = await payIn({ ...body, redirectUrls: { success: 'https://shop.test/ok' } });
    assert.equal(half.status, 422);
    const badScheme = await payIn({ ...body, redirectUrls: { success: 'javascript:alert(1)', failure: 'https://shop.test/ko' } });
    assert.equal(badScheme.status, 400);
    assert.equal(badScheme.body.code, 'VALIDATION_ERROR');
    assert.equal(sandbox.control.transactions().length, 0);
    const ok = await payIn({ ...body, redirectUrls: { success: 'https://shop.test/ok', failure: 'http://shop.test/ko' } });
    assert.equal(ok.status, 200);
    assert.equal(sandbox.control.transaction(orderId)?.operatorCode, 'wallet');
    assert.equal(sandbox.control.transaction(orderId)?.workflow, 'redirect_url');
    sandbox.control.reset();
  });

  it('ignores any other operatorCode (Wallet, MTN, moov, empty): the prefix decides (§2.3)', async () => {
    const { sandbox, payIn } = setup();
    for (const operatorCode of ['Wallet', 'WALLET', 'MTN', 'moov', '']) {
      const orderId = newOrder();
      const answer = await payIn({ orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', operatorCode });
      assert.equal(answer.status, 200, operatorCode);
      assert.equal(sandbox.control.transaction(orderId)?.operatorCode, 'mtn', operatorCode);
    }
    sandbox.control.reset();
  });
});

describe('GET /v1/pay-in/preview (§4.2, §2.6)', () => {
  const preview = async (sandbox: ReturnType<typeof createSandbox>, query: string) => {
    const response = await sandbox.fetch(request(sandbox.apiKey, `/v1/pay-in/preview?${query}`));
    return { status: response.status, body: (await response.json()) as any };
  };

  it('estimates fees deducted from the amount, rounded to the currency, and the workflow; creates nothing; counts calls', async () => {
    const { sandbox } = setup();
    const { status, body } = await preview(sandbox, 'phoneNumber=%2B2290196000001&currencyCode=XOF&amount=1001');
    assert.equal(status, 200);
    // MTN BJ: 1.5% + 0.5%, half-up to whole XOF: 15.015 -> 15, 5.005 -> 5.
    assert.deepEqual(body.data, { feeProvider: 15, feePlatform: 5, feeTotal: 20, amountCredited: 981, workflowType: 'provider_auth' });
    assert.equal(sandbox.control.transactions().length, 0);
    assert.equal(sandbox.control.previewCount('+2290196000001'), 1);
    const usd = await preview(sandbox, 'phoneNumber=%2B243810000001&currencyCode=USD&amount=12.5');
    // Vodacom: 2% of 12.50 = 0.25, 0.5% = 0.0625 -> 0.06.
    assert.deepEqual(usd.body.data, { feeProvider: 0.25, feePlatform: 0.06, feeTotal: 0.31, amountCredited: 12.19, workflowType: 'provider_auth' });
    const wallet = await preview(sandbox, 'phoneNumber=%2B2290196000001&currencyCode=XOF&amount=5000&operatorCode=wallet');
    assert.equal(wallet.body.data.workflowType, 'redirect_url');
    assert.equal(sandbox.control.previewCount(), 3);
  });

  it('refuses amount <= 0, missing fields and excess decimals', async () => {
    const { sandbox } = setup();
    for (const query of [
      'phoneNumber=%2B2290196000001&currencyCode=XOF&amount=0',
      'phoneNumber=%2B2290196000001&currencyCode=XOF&amount=-5',
      'phoneNumber=%2B2290196000001&currencyCode=XOF',
      'currencyCode=XOF&amount=100',
      'phoneNumber=%2B2290196000001&amount=100',
      'phoneNumber=%2B2290196000001&currencyCode=XOF&amount=100.5',
    ]) {
      const { status, body } = await preview(sandbox, query);
      assert.equal(status, 400, query);
      assert.equal(body.code, 'VALIDATION_ERROR', query);
    }
    assert.equal(sandbox.control.previewCount(), 0);
  });
});

describe('POST /v1/pay-out (§4.3) and POST /v1/webhook-secrets (§4.7)', () => {
  it('debits the balance and answers pending with newBalance; fails synchronously on insufficient funds', async () => {
    const { sandbox } = setup();
    const payOut = async (body: object) => {
      const response = await sandbox.fetch(request(sandbox.apiKey, '/v1/pay-out', { body }));
      return { status: response.status, body: (await response.json()) as any };
    };
    const first = await payOut({ orderId: newOrder(), amount: 400000, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    assert.equal(first.status, 200);
    assert.equal(first.body.data.status, 'pending');
    assert.equal(first.body.data.newBalance, 600000);
    assert.match(first.body.data.transactionId, /^[0-9a-f-]{36}$/);
    const orderId = newOrder();
    const poor = await payOut({ orderId, amount: 600001, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    assert.equal(poor.status, 200);
    assert.equal(poor.body.data.status, 'failed');
    assert.equal(poor.body.data.failureCategory, 'INSUFFICIENT_FUNDS');
    assert.equal(typeof poor.body.data.failureReason, 'string');
    assert.equal(poor.body.data.newBalance, 600000);
    assert.equal(sandbox.control.transaction(orderId)?.kind, 'payout');
    assert.equal((await payOut({ orderId, amount: 1, phoneNumber: '+2290196000001', currencyCode: 'XOF' })).status, 409);
  });

  it('creates a whsec_ secret that then signs notifications', async () => {
    const { sandbox } = setup();
    const before = sandbox.webhookSecret;
    const response = await sandbox.fetch(request(sandbox.apiKey, '/v1/webhook-secrets', { method: 'POST', body: {} }));
    assert.equal(response.status, 200);
    const body = (await response.json()) as any;
    assert.match(body.data.secret, /^whsec_[0-9a-f]{48}$/);
    assert.notEqual(body.data.secret, before);
    assert.equal(sandbox.webhookSecret, body.data.secret);
  });
});
