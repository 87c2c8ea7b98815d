import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  corridorsSchema,
  countriesSchema,
  describeSchemaError,
  errorEnvelopeSchema,
  missingElementSchema,
  operatorsSchema,
  payInAnswerSchema,
  payOutAnswerSchema,
  previewSchema,
  webhookSecretAnswerSchema,
} from '../../src/contract/upstream/index.js';

// The sample of assumptions.md, verbatim but for the logo host.
const corridorsSample = {
  success: true,
  data: {
    phone: '+22995000001',
    country: 'BJ',
    transactionType: 'payin',
    operators: [
      {
        code: 'moov', name: 'Moov Money', logoUrl: 'https://logos.example/moov.svg', country: 'BJ',
        workflowType: 'pre_authorized', minAmountMajor: 200, maxAmountMajor: null,
        instructions: 'Dial ... to generate a payment code, then type it here.',
        currencies: [{ code: 'XOF', decimalPlaces: 0 }],
      },
      {
        code: 'wallet', name: 'Wallet', logoUrl: 'https://logos.example/wallet.svg', country: 'BJ',
        workflowType: 'redirect_url', minAmountMajor: 100, maxAmountMajor: 2000000, instructions: '',
        currencies: [{ code: 'XOF', decimalPlaces: 0 }],
      },
    ],
  },
};

describe('upstream schemas', () => {
  it('parses the corridors sample, keeping a null ceiling and empty instructions', () => {
    const parsed = corridorsSchema.parse(corridorsSample);
    assert.equal(parsed.data.operators[0]?.maxAmountMajor, null);
    assert.equal(parsed.data.operators[1]?.instructions, '');
  });

  it('treats absent instructions and an absent ceiling as empty and none', () => {
    const { instructions: _i, maxAmountMajor: _m, ...bare } = corridorsSample.data.operators[0]!;
    const parsed = corridorsSchema.parse({ success: true, data: { operators: [bare] } });
    assert.equal(parsed.data.operators[0]?.instructions, '');
    assert.equal(parsed.data.operators[0]?.maxAmountMajor, null);
  });

  it('keeps unknown fields and unknown workflow names instead of failing', () => {
    const extra = structuredClone(corridorsSample);
    Object.assign(extra.data.operators[0]!, { workflowType: 'biometric_future', brandColour: '#fc0' });
    const parsed = corridorsSchema.parse(extra);
    assert.equal(parsed.data.operators[0]?.workflowType, 'biometric_future');
    assert.equal((parsed.data.operators[0] as Record<string, unknown>).brandColour, '#fc0');
  });

  it('names the missing field in one line', () => {
    const broken = structuredClone(corridorsSample) as { data: { operators: Array<Record<string, unknown>> } };
    delete broken.data.operators[0]!.currencies;
    const result = corridorsSchema.safeParse(broken);
    assert.equal(result.success, false);
    if (!result.success) {
      assert.equal(describeSchemaError('corridors', result.error), 'corridors: data.operators[0].currencies is required');
    }
  });

  it('parses operators and countries', () => {
    assert.equal(operatorsSchema.parse({ success: true, data: { operators: [{ code: 'mtn', name: 'MTN', logoUrl: 'https://x/mtn.svg' }] } }).data.operators.length, 1);
    const countries = countriesSchema.parse({
      success: true,
      data: { countries: [{ code: 'BJ', name: 'Benin', dialCode: '+229', currencies: ['XOF'], operators: [{ code: 'mtn', name: 'MTN MoMo', logoUrl: 'https://x' }] }] },
    });
    assert.equal(countries.data.countries[0]?.dialCode, '+229');
    assert.equal(countriesSchema.safeParse({ success: true, data: { countries: [{ code: 'BEN', name: 'Benin' }] } }).success, false);
  });

  it('parses a fee preview and refuses one without workflowType', () => {
    const data = { feeProvider: 75, feePlatform: 25, feeTotal: 100, amountCredited: 4900, workflowType: 'provider_auth' };
    assert.equal(previewSchema.parse({ success: true, data }).data.workflowType, 'provider_auth');
    const { workflowType: _w, ...without } = data;
    assert.equal(previewSchema.safeParse({ success: true, data: without }).success, false);
  });

  it('parses pay-in and pay-out answers', () => {
    const payIn = payInAnswerSchema.parse({ success: true, data: { orderId: 'o', transactionId: '7c9e', status: 'pending', message: 'accepted' } });
    assert.equal(payIn.data.status, 'pending');
    const payOut = payOutAnswerSchema.parse({
      success: true,
      data: { orderId: 'o', transactionId: 't', status: 'failed', newBalance: 10, failureCategory: 'INSUFFICIENT_FUNDS', failureReason: 'balance' },
    });
    assert.equal(payOut.data.failureCategory, 'INSUFFICIENT_FUNDS');
    assert.equal(payInAnswerSchema.safeParse({ success: false, data: {} }).success, false);
  });

  it('parses error envelopes with and without a code, and the 422 body', () => {
    assert.equal(errorEnvelopeSchema.parse({ success: false, message: 'exists' }).code, undefined);
    assert.equal(errorEnvelopeSchema.parse({ success: false, code: 'VALIDATION_ERROR', message: 'x' }).code, 'VALIDATION_ERROR');
    assert.equal(errorEnvelopeSchema.safeParse('<html>').success, false);
    const missing = missingElementSchema.parse({ success: false, code: 'OTP_REQUIRED', status: 'OTP_REQUIRED', message: 'otp', data: { workflow: 'pre_authorized' } });
    assert.equal(missing.data.workflow, 'pre_authorized');
    assert.equal(missingElementSchema.safeParse({ success: false, code: 'OTP_REQUIRED' }).success, false);
  });

  it('parses a webhook secret creation and refuses a secret without the whsec_ prefix', () => {
    assert.ok(webhookSecretAnswerSchema.parse({ success: true, data: { secret: 'whsec_abc' } }));
    assert.equal(webhookSecretAnswerSchema.safeParse({ success: true, data: { secret: 'abc' } }).success, false);
  });
});
