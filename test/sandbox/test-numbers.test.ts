import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { createSandbox } from '../../src/sandbox/index.js';
import { request } from './helpers.js';

describe('test numbers catalogue (assumptions.md §Phone)', () => {
  const sandbox = createSandbox({ log: () => {} });
  const numbers = sandbox.control.testNumbers();

  it('are valid MOBILE numbers of their country for libphonenumber-js max metadata', () => {
    for (const entry of numbers) {
      const parsed = parsePhoneNumberWithError(entry.phoneNumber);
      assert.equal(parsed.number, entry.phoneNumber, `${entry.phoneNumber} is not in E.164 form`);
      assert.equal(parsed.isValid(), true, `${entry.phoneNumber} is no longer valid`);
      assert.equal(parsed.country, entry.country, entry.phoneNumber);
      assert.ok(['MOBILE', 'FIXED_LINE_OR_MOBILE'].includes(parsed.getType() ?? ''), `${entry.phoneNumber} is ${parsed.getType()}`);
    }
  });

  it('give each country an approving, a declining and a never-answering number', () => {
    const countries = new Set(numbers.map((entry) => entry.country));
    assert.ok(countries.size >= 5);
    for (const country of countries) {
      for (const outcome of ['approve', 'decline', 'no-answer'] as const) {
        assert.ok(numbers.some((entry) => entry.country === country && entry.outcome === outcome), `${country} lacks ${outcome}`);
      }
    }
  });

  it('document the OTP on pre_authorized numbers and resolve to their declared operator and workflow', async () => {
    for (const entry of numbers) {
      if (entry.workflow === 'pre_authorized') assert.match(entry.note, /123456/);
      const response = await sandbox.fetch(request(sandbox.apiKey, `/v1/corridors/available?phone=${encodeURIComponent(entry.phoneNumber)}&transactionType=payin`));
      const body = (await response.json()) as any;
      assert.equal(body.data.operators[0].code, entry.operatorCode, entry.phoneNumber);
      assert.equal(body.data.operators[0].workflowType, entry.workflow, entry.phoneNumber);
    }
  });

  it('are served by the control surface', async () => {
    const response = await sandbox.fetch(request(sandbox.apiKey, '/_sandbox/numbers'));
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as any).data.numbers, numbers);
  });
});
