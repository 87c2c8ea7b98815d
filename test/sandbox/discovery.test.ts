import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandbox } from '../../src/sandbox/index.js';
import { BASE, request } from './helpers.js';

const quiet = () => {};

describe('sandbox auth (§5.1)', () => {
  const sandbox = createSandbox({ log: quiet });

  it('answers 401 UNAUTHORIZED without a Bearer key, and X-API-Key means nothing', async () => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-api-key': sandbox.apiKey }, { authorization: 'Bearer wrong' }, { authorization: sandbox.apiKey }];
    for (const headers of attempts) {
      const response = await sandbox.fetch(new Request(`${BASE}/v1/operators`, { headers }));
      assert.equal(response.status, 401);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.success, false);
      assert.equal(body.code, 'UNAUTHORIZED');
      assert.equal(typeof body.message, 'string');
    }
  });

  it('guards the control surface with the same key', async () => {
    const response = await sandbox.fetch(new Request(`${BASE}/_sandbox/transactions`));
    assert.equal(response.status, 401);
  });

  it('serves GET /v1/countries without a key (§4.5)', async () => {
    const response = await sandbox.fetch(new Request(`${BASE}/v1/countries`));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { success: boolean; data: { countries: Array<{ code: string; dialCode: string; currencies: string[]; operators: Array<{ code: string; logoUrl: string }> }> } };
    assert.equal(body.success, true);
    const codes = body.data.countries.map((country) => country.code);
    for (const code of ['BJ', 'CI', 'SN', 'CM', 'CD']) assert.ok(codes.includes(code), code);
    const congo = body.data.countries.find((country) => country.code === 'CD')!;
    assert.deepEqual(congo.currencies.sort(), ['CDF', 'USD']);
    assert.match(congo.operators[0]!.logoUrl, /^http:\/\/sandbox\.test\/logos\/[a-z]+\.svg$/);
  });

  it('answers unknown routes 404 NOT_FOUND with the envelope', async () => {
    const response = await sandbox.fetch(request(sandbox.apiKey, '/v1/nothing-here'));
    assert.equal(response.status, 404);
    assert.deepEqual(Object.keys((await response.json()) as object).sort(), ['code', 'message', 'success']);
  });
});

describe('GET /v1/corridors/available (§4.6, assumptions.md)', () => {
  const sandbox = createSandbox({ log: quiet });
  const corridors = async (phone: string, type = 'payin') => {
    const response = await sandbox.fetch(request(sandbox.apiKey, `/v1/corridors/available?phone=${encodeURIComponent(phone)}&transactionType=${type}`));
    return { status: response.status, body: (await response.json()) as any };
  };

  it('lists the prefix operator and the overlay wallet beside it, one entry per currency', async () => {
    const { status, body } = await corridors('+2290194000001');
    assert.equal(status, 200);
    assert.equal(body.data.country, 'BJ');
    assert.equal(body.data.phone, '+2290194000001');
    assert.equal(body.data.transactionType, 'payin');
    const [moov, wallet] = body.data.operators;
    assert.equal(moov.code, 'moov');
    assert.equal(moov.workflowType, 'pre_authorized');
    assert.match(moov.instructions, /\*145\*4#/);
    assert.equal(moov.maxAmountMajor, null);
    assert.deepEqual(moov.currencies, [{ code: 'XOF', decimalPlaces: 0 }]);
    assert.equal(wallet.code, 'wallet');
    assert.equal(wallet.workflowType, 'redirect_url');
    assert.equal(body.data.operators.length, 2);
  });

  it('shows an operator serving two currencies twice, with its own bounds and decimals', async () => {
    const { body } = await corridors('+243810000001');
    const entries = body.data.operators.filter((entry: any) => entry.code === 'vodacom');
    assert.equal(entries.length, 2);
    assert.deepEqual(entries.map((entry: any) => entry.currencies[0]), [{ code: 'CDF', decimalPlaces: 2 }, { code: 'USD', decimalPlaces: 2 }]);
    assert.notEqual(entries[0].minAmountMajor, entries[1].minAmountMajor);
  });

  it('gives an operator with EMPTY instructions (the checkout needs its fallback)', async () => {
    const { body } = await corridors('+2290140000001');
    assert.equal(body.data.operators[0].code, 'celtiis');
    assert.equal(body.data.operators[0].instructions, '');
  });

  it('refuses a number that is not strict E.164 (§2.2)', async () => {
    for (const phone of ['+229 01 96 00 00 01', '2290196000001', '+229-0196000001', '']) {
      const { status, body } = await corridors(phone);
      assert.equal(status, 400, phone);
      assert.equal(body.code, 'VALIDATION_ERROR');
    }
  });

  it('answers an empty list for a country it does not serve', async () => {
    const { status, body } = await corridors('+33612345678');
    assert.equal(status, 200);
    assert.deepEqual(body.data.operators, []);
  });
});

describe('GET /v1/operators (§4.4) and logos', () => {
  const sandbox = createSandbox({ log: quiet });

  it('lists operators, filtered by a 2-character country', async () => {
    const response = await sandbox.fetch(request(sandbox.apiKey, '/v1/operators?country=CM'));
    const body = (await response.json()) as any;
    assert.equal(response.status, 200);
    assert.deepEqual(body.data.operators.map((operator: any) => operator.code), ['mtn', 'orange']);
    for (const operator of body.data.operators) assert.deepEqual(Object.keys(operator), ['code', 'name', 'logoUrl']);
  });

  it('refuses a country that is not exactly 2 characters (§8)', async () => {
    for (const country of ['BEN', 'B', '']) {
      const response = await sandbox.fetch(request(sandbox.apiKey, `/v1/operators?country=${country}`));
      assert.equal(response.status, 400, country);
      assert.equal(((await response.json()) as any).code, 'VALIDATION_ERROR');
    }
  });

  it('serves its own SVG logos (no external asset)', async () => {
    const response = await sandbox.fetch(new Request(`${BASE}/logos/mtn.svg`));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    const svg = await response.text();
    assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /<rect [^>]*rx=/);
    assert.doesNotMatch(svg, /https?:\/\/(?!www\.w3\.org)/);
    assert.equal((await sandbox.fetch(new Request(`${BASE}/logos/nope.svg`))).status, 404);
  });
});
