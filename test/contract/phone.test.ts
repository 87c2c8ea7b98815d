import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizePhoneFull } from '../../src/contract/phone-full.js';
import { redactPhone, type PhoneErrorCode } from '../../src/contract/phone.js';

// Mobile numbers that libphonenumber-js 1.13.16's max metadata calls valid mobiles.
const accepted: Array<[typed: string, country: string | undefined, e164: string]> = [
  // Côte d'Ivoire: 10 national digits since 2021.
  ['+225 07 00 00 00 01', undefined, '+2250700000001'],
  ['07 00 00 00 01', 'CI', '+2250700000001'],
  ['0700000001', 'CI', '+2250700000001'],
  ['00225 07-00-00-00-01', undefined, '+2250700000001'],
  ['(+225) 07.00.00.00.01', undefined, '+2250700000001'],
  // Benin: 10 national digits (01 prefix) since 2024.
  ['+229 01 97 00 00 01', undefined, '+2290197000001'],
  ['01 97 00 00 01', 'BJ', '+2290197000001'],
  ['00229-0197000001', undefined, '+2290197000001'],
  // Cameroon
  ['+237 6 71 23 45 67', undefined, '+237671234567'],
  ['671 23 45 67', 'CM', '+237671234567'],
  // Senegal
  ['+221 77 123 45 67', undefined, '+221771234567'],
  ['77-123-45-67', 'SN', '+221771234567'],
  // Ghana
  ['024 412 3456', 'GH', '+233244123456'],
  ['+233 (0)24 412 3456', undefined, '+233244123456'],
  // Kenya
  ['0712 345678', 'KE', '+254712345678'],
  ['+254 712 345 678', undefined, '+254712345678'],
  // DR Congo
  ['+243 81 234 5678', undefined, '+243812345678'],
  ['081 234 5678', 'CD', '+243812345678'],
];

const refused: Array<[typed: string, country: string | undefined, code: PhoneErrorCode]> = [
  ['', 'CI', 'EMPTY'],
  ['   ', undefined, 'EMPTY'],
  ['+2250700', undefined, 'TOO_SHORT'],
  ['+22507000000011111', undefined, 'TOO_LONG'],
  ['+999 1234567', undefined, 'INVALID_COUNTRY'],
  ['0700000001', undefined, 'INVALID_COUNTRY'],
  ['call me', 'CI', 'NOT_A_NUMBER'],
  ['07 00 ab 00 01', 'CI', 'NOT_A_NUMBER'],
  ['+221 33 823 45 67', undefined, 'NOT_MOBILE'], // Dakar fixed line
  ['+225 27 20 21 22 23', undefined, 'NOT_MOBILE'], // Abidjan fixed line
  ['+254 20 2012345', undefined, 'NOT_MOBILE'], // Nairobi fixed line
  ['+225 99 00 00 00 01', undefined, 'INVALID'],
];

describe('normalizePhone with full metadata', () => {
  for (const [typed, country, e164] of accepted) {
    it(`reads ${JSON.stringify(typed)}${country ? ` in ${country}` : ''} as ${e164}`, () => {
      const result = normalizePhoneFull(typed, country);
      assert.equal(result.ok, true, JSON.stringify(result));
      if (result.ok) assert.equal(result.e164, e164);
    });
  }
  for (const [typed, country, code] of refused) {
    it(`refuses ${JSON.stringify(typed)}${country ? ` in ${country}` : ''}: ${code}`, () => {
      const result = normalizePhoneFull(typed, country);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.code, code);
        assert.ok(result.message.length > 10);
      }
    });
  }
  it('gives the country and display forms of a valid number', () => {
    const result = normalizePhoneFull('0700000001', 'ci');
    assert.ok(result.ok);
    if (result.ok) {
      assert.equal(result.country, 'CI');
      assert.equal(result.international.replace(/\s/g, ''), '+2250700000001');
    }
  });
});

describe('redactPhone', () => {
  it('keeps the calling code and the last two digits only', () => {
    assert.equal(redactPhone('+22997000001'), '+229••••••01');
    assert.equal(redactPhone('+2250700000001'), '+225••••••••01');
    assert.equal(redactPhone('+254712345678'), '+254•••••••78');
    assert.equal(redactPhone('+12025550100'), '+1••••••••00');
  });
  it('masks odd input whole and never throws', () => {
    assert.equal(redactPhone('x'), '•••');
    assert.equal(redactPhone('12'), '•••');
  });
});
