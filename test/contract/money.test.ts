import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  addAmounts,
  compareAmounts,
  formatAmount,
  fromMinorUnits,
  jsonDecimal,
  parseAmount,
  stringifyJsonWithDecimals,
  toMinorUnits,
  type AmountErrorCode,
} from '../../src/contract/money.js';

const accepted: Array<[text: string, decimals: number, canonical: string]> = [
  ['5000', 0, '5000'],
  [' 5000 ', 0, '5000'],
  ['5000.00', 0, '5000'],
  ['005000', 0, '5000'],
  ['100', 0, '100'],
  ['12.5', 2, '12.5'],
  ['12.50', 2, '12.5'],
  ['0.07', 2, '0.07'],
  ['.5', 2, '0.5'],
  ['12.', 2, '12'],
  ['1.234', 3, '1.234'],
  ['1.2340', 3, '1.234'],
  ['0.001', 3, '0.001'],
  ['7', 3, '7'],
  ['999999999999999', 0, '999999999999999'], // largest 0-decimal amount sent exactly (15 digits)
  ['999999999999999.00', 0, '999999999999999'],
  ['10000000000000.00', 2, '10000000000000'], // zeros that carry no value are not digits sent
  ['9999999999999.99', 2, '9999999999999.99'], // largest 2-decimal amount sent exactly
  ['999999999999.999', 3, '999999999999.999'], // largest 3-decimal amount sent exactly
];

const refused: Array<[text: string, decimals: number, code: AmountErrorCode]> = [
  ['', 0, 'EMPTY'],
  ['   ', 2, 'EMPTY'],
  ['-5', 0, 'SIGNED'],
  ['+5', 0, 'SIGNED'],
  ['NaN', 0, 'NOT_A_NUMBER'],
  ['Infinity', 0, 'NOT_A_NUMBER'],
  ['abc', 0, 'NOT_A_NUMBER'],
  ['1.2.3', 2, 'NOT_A_NUMBER'],
  ['1e3', 0, 'EXPONENT'],
  ['1E-2', 2, 'EXPONENT'],
  ['1,000', 0, 'SEPARATOR'],
  ['1 000', 0, 'SEPARATOR'],
  ['12,50', 2, 'SEPARATOR'],
  ['5000.5', 0, 'TOO_PRECISE'],
  ['12.505', 2, 'TOO_PRECISE'],
  ['0.001', 2, 'TOO_PRECISE'],
  ['0', 0, 'ZERO'],
  ['0.00', 2, 'ZERO'],
  ['1000000000000000', 0, 'TOO_LARGE'], // first too large: 16 significant digits
  ['99999999999999.99', 2, 'TOO_LARGE'], // first too large with 2 decimals: 16 digits
  ['10000000000000.01', 2, 'TOO_LARGE'], // 16 digits
  ['9999999999999.999', 3, 'TOO_LARGE'],
  ['1.2345', 3, 'TOO_PRECISE'],
  ['0.000', 3, 'ZERO'],
  ['-0', 0, 'SIGNED'],
  ['-Infinity', 0, 'SIGNED'],
  ['0x10', 0, 'NOT_A_NUMBER'],
  ['١٢', 0, 'NOT_A_NUMBER'], // Arabic-Indic digits: not what the service reads
  ['1 000', 0, 'SEPARATOR'],
  ["1'000", 0, 'SEPARATOR'],
  ['.', 2, 'NOT_A_NUMBER'],
];

describe('parseAmount', () => {
  for (const [text, decimals, canonical] of accepted) {
    it(`accepts ${JSON.stringify(text)} with ${decimals} decimals as ${canonical}`, () => {
      assert.deepEqual(parseAmount(text, decimals), { ok: true, amount: canonical });
    });
  }
  for (const [text, decimals, code] of refused) {
    it(`refuses ${JSON.stringify(text)} with ${decimals} decimals: ${code}, with a reason`, () => {
      const result = parseAmount(text, decimals);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.code, code);
        assert.ok(result.message.length > 10);
      }
    });
  }
});

describe('decimalPlaces is the service\'s, never guessed', () => {
  it('throws on a decimalPlaces that is not a whole number >= 0', () => {
    assert.throws(() => parseAmount('1', -1), RangeError);
    assert.throws(() => parseAmount('1', 1.5), RangeError);
    assert.throws(() => toMinorUnits('1', Number.NaN), RangeError);
  });
});

describe('exact arithmetic', () => {
  it('converts to and from minor units', () => {
    assert.equal(toMinorUnits('12.5', 2), 1250n);
    assert.equal(toMinorUnits('5000', 0), 5000n);
    assert.equal(fromMinorUnits(1250n, 2), '12.5');
    assert.equal(fromMinorUnits(7n, 2), '0.07');
    assert.equal(fromMinorUnits(500000n, 0), '500000');
    assert.throws(() => toMinorUnits('12.505', 2), RangeError);
  });
  it('sums fees exactly where floats do not', () => {
    assert.notEqual(0.1 + 0.2, 0.3);
    assert.equal(fromMinorUnits(toMinorUnits('0.1', 2) + toMinorUnits('0.2', 2), 2), '0.3');
    assert.equal(fromMinorUnits(toMinorUnits('5000', 0) - toMinorUnits('75', 0), 0), '4925');
  });
  it('adds amounts of any scale exactly, in canonical form (the export\'s refunded totals)', () => {
    assert.equal(addAmounts([]), '0');
    assert.equal(addAmounts(['0.1', '0.2']), '0.3');
    assert.equal(addAmounts(['1.5', '0.25', '100']), '101.75');
    assert.equal(addAmounts(['999999999999999.99', '0.01']), '1000000000000000');
    assert.throws(() => addAmounts(['1e3']), RangeError);
  });
  it('compares amounts of any scale exactly', () => {
    assert.equal(compareAmounts('5000', '5000.0'), 0);
    assert.equal(compareAmounts('0.07', '0.1'), -1);
    assert.equal(compareAmounts('2000000', '199999.99'), 1);
    assert.equal(compareAmounts('999999999999999', '999999999999998.999'), 1);
    assert.equal(compareAmounts('200', '200'), 0);
  });
  it('round-trips every amount through minor units and parseAmount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 999_999_999_999_999n }), fc.integer({ min: 0, max: 3 }), (minor, decimals) => {
        const amount = fromMinorUnits(minor, decimals);
        assert.deepEqual(parseAmount(amount, decimals), { ok: true, amount });
        assert.equal(toMinorUnits(amount, decimals), minor);
      }),
    );
  });
  it('accepts only amounts that survive the JSON number round trip unchanged', () => {
    // Why 15 digits: the service reads `amount` as a double (§2.3, JSON number).
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 999_999_999_999_999n }), fc.integer({ min: 0, max: 3 }), (minor, decimals) => {
        const amount = fromMinorUnits(minor, decimals);
        assert.equal(String(JSON.parse(stringifyJsonWithDecimals({ amount: jsonDecimal(amount) })).amount), amount);
      }),
    );
  });
});

describe('formatAmount', () => {
  const nbsp = /[\u00a0\u202f]/g;
  // Expected texts read from Node 20's ICU; spaces below stand for its (narrow) no-break spaces.
  const cases: Array<[amount: string, currency: string, locale: string, decimals: number | undefined, expected: string]> = [
    ['5000', 'XOF', 'fr-FR', 0, '5 000 F CFA'],
    ['5000', 'XOF', 'en-US', 0, 'F CFA 5,000'],
    ['5000', 'XOF', 'fr-CI', 0, '5 000 F CFA'],
    ['5000', 'XOF', 'fr-CI', undefined, '5 000 F CFA'], // Intl knows XOF has no decimals
    ['5000', 'XAF', 'fr-FR', 0, '5 000 FCFA'],
    ['5000', 'XAF', 'en-US', 0, 'FCFA 5,000'],
    ['5000', 'XAF', 'fr-CI', 0, '5 000 FCFA'],
    ['5000', 'XAF', 'fr-CM', 0, '5 000 FCFA'],
    ['1234.5', 'USD', 'fr-FR', 2, '1 234,50 $US'],
    ['1234.5', 'USD', 'en-US', 2, '$1,234.50'],
    ['1234.5', 'USD', 'fr-CI', 2, '1 234,50 $US'],
    ['1234.5', 'KES', 'fr-FR', 2, '1 234,50 KES'],
    ['1234.5', 'KES', 'en-US', 2, 'KES 1,234.50'],
    ['1234.5', 'KES', 'fr-CI', 2, '1 234,50 KES'],
    ['1500', 'KES', 'en-KE', 2, 'Ksh 1,500.00'],
    ['1234.5', 'USDC', 'fr-FR', 2, '1 234,50 USDC'], // unknown to Intl: the code beside the number
    ['1234.5', 'USDC', 'en-US', 2, '1,234.50 USDC'],
    ['1234.5', 'USDC', 'fr-CI', 2, '1 234,50 USDC'],
    ['12.5', 'USDC', 'en-US', 2, '12.50 USDC'],
    ['9999999999999.99', 'USD', 'en-US', 2, '$9,999,999,999,999.99'], // no float step
    ['0.07', 'USD', 'en-US', 2, '$0.07'],
    // Never rounded: more decimals than the currency has are all shown (the order holds them).
    ['5000.5', 'XOF', 'en-US', 0, 'F CFA 5,000.5'],
    ['5000.5', 'XOF', 'fr-FR', 0, '5 000,5 F CFA'],
    ['12.345', 'USD', 'en-US', 2, '$12.345'],
    ['12.345', 'USD', 'en-US', undefined, '$12.345'],
    ['0.001', 'USDC', 'en-US', 2, '0.001 USDC'],
  ];
  for (const [amount, currency, locale, decimals, expected] of cases) {
    it(`shows ${amount} ${currency} in ${locale} as ${expected}`, () => {
      assert.equal(formatAmount(amount, currency, locale, decimals).replace(nbsp, ' '), expected);
    });
  }
});

describe('stringifyJsonWithDecimals', () => {
  it('writes amounts as JSON numbers with exactly the merchant digits', () => {
    const body = { orderId: 'o-1', amount: jsonDecimal('0.07'), big: jsonDecimal('9999999999999.99'), whole: jsonDecimal('5000'), half: jsonDecimal('12.5') };
    assert.equal(stringifyJsonWithDecimals(body), '{"orderId":"o-1","amount":0.07,"big":9999999999999.99,"whole":5000,"half":12.5}');
  });
  it('never leaves a float accident', () => {
    assert.equal(JSON.stringify({ amount: 0.1 + 0.2 }), '{"amount":0.30000000000000004}');
    assert.equal(stringifyJsonWithDecimals({ amount: jsonDecimal(parseAmountOrThrow('0.3')) }), '{"amount":0.3}');
  });
  it('leaves text that looks like its marker alone', () => {
    assert.equal(stringifyJsonWithDecimals({ note: '__momo_decimal_x_0' }), '{"note":"__momo_decimal_x_0"}');
  });
  it('refuses to write something that is not a decimal', () => {
    assert.throws(() => jsonDecimal('1e3'), TypeError);
  });
});

function parseAmountOrThrow(text: string): string {
  const result = parseAmount(text, 2);
  if (!result.ok) throw new Error(result.message);
  return result.amount;
}
