import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import maxMetadata from 'libphonenumber-js/max/metadata';
import { normalizePhoneFull } from '../../src/contract/phone-full.js';
import { normalizePhone, redactPhone, type MetadataJson, type PhoneErrorCode } from '../../src/contract/phone.js';

/**
 * One mobile number per country, checked with libphonenumber-js 1.13.16's max metadata to be a
 * valid MOBILE (an accepted result below proves it still is: normalizePhone refuses a number that
 * is invalid or of another known type). `national` is what a payer types at home, with the trunk 0
 * where the country has one (GH, KE, CD); in CI and BJ the leading 0 belongs to the number itself.
 */
const mobiles: Array<{ country: string; e164: string; national: string; spaced: string }> = [
  // Côte d'Ivoire: 10 national digits since 2021.
  { country: 'CI', e164: '+2250700000001', national: '07 00 00 00 01', spaced: '+225 07 00 00 00 01' },
  // Benin: 10 national digits (01 before the old 8) since 2024.
  { country: 'BJ', e164: '+2290197000001', national: '01 97 00 00 01', spaced: '+229 01 97 00 00 01' },
  // Cameroon and Senegal have no trunk prefix.
  { country: 'CM', e164: '+237671234567', national: '6 71 23 45 67', spaced: '+237 6 71 23 45 67' },
  { country: 'SN', e164: '+221771234567', national: '77 123 45 67', spaced: '+221 77 123 45 67' },
  { country: 'GH', e164: '+233244123456', national: '024 412 3456', spaced: '+233 24 412 3456' },
  { country: 'KE', e164: '+254712345678', national: '0712 345678', spaced: '+254 712 345 678' },
  { country: 'CD', e164: '+243812345678', national: '081 234 5678', spaced: '+243 81 234 5678' },
];

/** The shapes people type one number in. */
function typedShapes(number: (typeof mobiles)[number]): Array<[typed: string, defaultCountry: string | undefined]> {
  const callingCode = number.spaced.slice(1, number.spaced.indexOf(' '));
  const subscriber = number.spaced.slice(number.spaced.indexOf(' ') + 1);
  return [
    [number.national, number.country],
    [number.national.replace(/ /g, ''), number.country],
    [number.national.replace(/ /g, '-'), number.country],
    [number.spaced, undefined],
    [number.spaced, number.country],
    [`00${callingCode} ${subscriber}`, undefined],
    [`+${callingCode}-${subscriber.replace(/ /g, '-')}`, undefined],
    [`(+${callingCode}) ${subscriber.replace(/ /g, '.')}`, undefined],
    [`  ${number.e164}\t`, 'CI'], // a + number wins over the default country
  ];
}

describe('normalizePhone with full metadata accepts what people type', () => {
  for (const number of mobiles) {
    for (const [typed, defaultCountry] of typedShapes(number)) {
      it(`${number.country}: ${JSON.stringify(typed)}${defaultCountry ? ` (default ${defaultCountry})` : ''} is ${number.e164}`, () => {
        const result = normalizePhoneFull(typed, defaultCountry);
        assert.ok(result.ok, JSON.stringify(result));
        assert.equal(result.e164, number.e164);
        assert.equal(result.country, number.country);
      });
    }
  }
  it('reads a trunk 0 written in brackets after the calling code', () => {
    const result = normalizePhoneFull('+233 (0)24 412 3456');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.e164, '+233244123456');
  });
  it('takes the default country in any case', () => {
    const result = normalizePhoneFull('0700000001', 'ci');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.country, 'CI');
  });
  it('gives the display forms of a valid number', () => {
    const result = normalizePhoneFull('+2250700000001');
    assert.ok(result.ok);
    assert.equal(result.international.replace(/\s/g, ''), '+2250700000001');
    assert.equal(result.national.replace(/\s/g, ''), '0700000001');
  });
});

const refused: Array<[typed: string, defaultCountry: string | undefined, code: PhoneErrorCode]> = [
  ['', 'CI', 'EMPTY'],
  ['  - ', undefined, 'EMPTY'],
  ['+2250700', undefined, 'TOO_SHORT'],
  ['07 00', 'CI', 'TOO_SHORT'],
  ['+22507000000011111', undefined, 'TOO_LONG'],
  ['+999 1234567', undefined, 'INVALID_COUNTRY'], // no country has calling code 999
  ['0700000001', undefined, 'INVALID_COUNTRY'], // national form, no country to read it in
  ['0700000001', 'ZZ', 'INVALID_COUNTRY'],
  ['call me', 'CI', 'NOT_A_NUMBER'],
  ['07 00 ab 00 01', 'CI', 'NOT_A_NUMBER'],
  ['1-800-FLOWERS', undefined, 'NOT_A_NUMBER'], // vanity letters are refused, not translated
  ['+221 33 823 45 67', undefined, 'NOT_MOBILE'], // Dakar fixed line
  ['+225 27 20 21 22 23', undefined, 'NOT_MOBILE'], // Abidjan fixed line
  ['+229 01 21 00 00 01', undefined, 'NOT_MOBILE'], // Cotonou fixed line
  ['+237 2 22 12 34 56', undefined, 'NOT_MOBILE'], // Yaoundé fixed line
  ['030 212 3456', 'GH', 'NOT_MOBILE'], // Accra fixed line
  ['+254 20 2012345', undefined, 'NOT_MOBILE'], // Nairobi fixed line
  ['+225 99 00 00 00 01', undefined, 'INVALID'],
  ['+229 97 00 00 01', undefined, 'TOO_SHORT'], // Benin's old 8-digit plan: 01 is missing since 2024
];

describe('normalizePhone refuses with a code and a reason', () => {
  for (const [typed, defaultCountry, code] of refused) {
    it(`${JSON.stringify(typed)}${defaultCountry ? ` (default ${defaultCountry})` : ''}: ${code}`, () => {
      const result = normalizePhoneFull(typed, defaultCountry);
      assert.equal(result.ok, false, JSON.stringify(result));
      if (!result.ok) {
        assert.equal(result.code, code);
        assert.match(result.message, /^[A-Z].{15,}[.)]$/);
        assert.doesNotMatch(result.message, /\d{6}/, 'the message never echoes the number');
      }
    });
  }
});

/** What the browser bundles: max metadata kept for a few countries only. */
function restrictMetadata(countries: string[]): MetadataJson {
  const full = maxMetadata as unknown as MetadataJson & { country_calling_codes: Record<string, string[]> };
  const callingCodes: Record<string, string[]> = {};
  for (const [code, holders] of Object.entries(full.country_calling_codes)) {
    const kept = holders.filter((country) => countries.includes(country));
    if (kept.length > 0) callingCodes[code] = kept;
  }
  const kept = Object.fromEntries(Object.entries(full.countries).filter(([country]) => countries.includes(country)));
  return { ...full, country_calling_codes: callingCodes, countries: kept } as MetadataJson;
}

describe('normalizePhone with metadata restricted to served countries (browser)', () => {
  const metadata = restrictMetadata(['CI', 'BJ']);
  it('reads a served country in national and international form', () => {
    assert.deepEqual(pick(normalizePhone('07 00 00 00 01', { defaultCountry: 'CI', metadata })), '+2250700000001');
    assert.deepEqual(pick(normalizePhone('00229 01 97 00 00 01', { metadata })), '+2290197000001');
  });
  it('still refuses a served fixed line as NOT_MOBILE (the metadata keeps types)', () => {
    const result = normalizePhone('+225 27 20 21 22 23', { metadata });
    assert.equal(result.ok ? 'ok' : result.code, 'NOT_MOBILE');
  });
  it('says INVALID_COUNTRY for a country it does not hold, whether typed with + or chosen', () => {
    const international = normalizePhone('+254 712 345 678', { metadata });
    assert.equal(international.ok ? 'ok' : international.code, 'INVALID_COUNTRY');
    const national = normalizePhone('0712 345678', { defaultCountry: 'KE', metadata });
    assert.equal(national.ok ? 'ok' : national.code, 'INVALID_COUNTRY');
  });
  it('reads a + number even when the chosen country is not held', () => {
    assert.equal(pick(normalizePhone('+225 07 00 00 00 01', { defaultCountry: 'KE', metadata })), '+2250700000001');
  });
});

function pick(result: ReturnType<typeof normalizePhone>): string {
  return result.ok ? result.e164 : result.code;
}

describe('redactPhone', () => {
  const cases: Array<[input: string, redacted: string]> = [
    ['+2290197000001', '+229••••••••01'],
    ['+2250700000001', '+225••••••••01'],
    ['+254712345678', '+254•••••••78'],
    ['+221771234567', '+221•••••••67'],
    ['+12025550100', '+1••••••••00'],
    ['+447911123456', '+44••••••••56'],
    ['+225 07 00 00 00 01', '+225••••••••01'], // as typed
    ['0700000001', '••••••••01'], // no +: the leading digits may not be a calling code
  ];
  for (const [input, redacted] of cases) {
    it(`writes ${JSON.stringify(input)} as ${redacted}`, () => {
      assert.equal(redactPhone(input), redacted);
    });
  }
  it('masks odd input whole and never throws', () => {
    for (const odd of ['', 'x', '12', '+', 'call +2250700000001 now', '+22507000000011111', undefined as unknown as string, 42 as unknown as string]) {
      assert.equal(redactPhone(odd), '•••', String(odd));
    }
  });
});
