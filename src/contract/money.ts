/**
 * Amounts are decimal strings from the moment they enter our code (`'5000'`, `'12.5'`, `'0.07'`),
 * never floats: the service refuses excess precision instead of rounding, so a float accident
 * (`0.07000000000000001`) would turn into a refused payment. Shared by browser and server: no Node
 * API, no dependency. Hand-written because no small library does "decimal text in, exact decimal
 * text out" without pulling in a whole big-decimal arithmetic package.
 */

export type AmountErrorCode = 'EMPTY' | 'NOT_A_NUMBER' | 'SIGNED' | 'EXPONENT' | 'SEPARATOR' | 'TOO_PRECISE' | 'ZERO' | 'TOO_LARGE';

export type AmountResult =
  | { ok: true; amount: string }
  | { ok: false; code: AmountErrorCode; message: string };

/**
 * A double keeps 15 significant decimal digits exactly (any 15-digit decimal text survives the
 * trip text -> double -> text); the service parses `amount` as a JSON number, so an amount
 * with more could arrive changed. Refuse it rather than risk it. Digits of the whole part count
 * even when they are trailing zeros: that also caps the magnitude, which no payment approaches.
 */
export const MAX_SIGNIFICANT_DIGITS = 15;

const plainDecimal = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * Parses decimal text for a currency with `decimalPlaces` decimals. Never rounds: excess
 * precision is refused; trailing zeros that carry no value (`5000.00` for XOF) are not excess.
 *
 * @example
 * parseAmount('12.50', 2); // { ok: true, amount: '12.5' }
 * parseAmount('12.505', 2); // { ok: false, code: 'TOO_PRECISE', ... }
 */
export function parseAmount(text: string, decimalPlaces: number): AmountResult {
  assertDecimalPlaces(decimalPlaces);
  const trimmed = text.trim();
  if (trimmed === '') return fail('EMPTY', 'Enter an amount.');
  if (/^[+-]/.test(trimmed)) return fail('SIGNED', 'Write the amount without a sign: it is always a positive number.');
  if (/^(nan|[+-]?infinity)$/i.test(trimmed)) return fail('NOT_A_NUMBER', 'The amount must be a number, such as 5000 or 12.50.');
  if (/^[\d.]+e[+-]?\d+$/i.test(trimmed)) return fail('EXPONENT', 'Write the amount in full digits, without an exponent (5000, not 5e3).');
  if (/^\d[\d\s,'._\u00a0\u202f]*$/.test(trimmed) && /[\s,'_\u00a0\u202f]/.test(trimmed)) {
    return fail('SEPARATOR', 'Write the amount without thousands separators or spaces, with a dot for decimals (1000.50).');
  }
  const match = plainDecimal.exec(trimmed);
  if (!match) return fail('NOT_A_NUMBER', 'The amount must be a number, such as 5000 or 12.50.');
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > decimalPlaces) {
    return fail(
      'TOO_PRECISE',
      decimalPlaces === 0
        ? 'This currency has no decimals: use a whole amount.'
        : `This currency allows at most ${decimalPlaces} decimals: the amount is never rounded, so give at most ${decimalPlaces}.`,
    );
  }
  const amount = fraction ? `${whole}.${fraction}` : whole;
  if (/^0(\.0*)?$/.test(amount)) return fail('ZERO', 'Enter an amount greater than zero.');
  const significant = (whole + fraction).replace(/^0+/, '').length;
  if (significant > MAX_SIGNIFICANT_DIGITS) {
    return fail('TOO_LARGE', `This amount is too large to be sent exactly: use at most ${MAX_SIGNIFICANT_DIGITS} digits in all.`);
  }
  return { ok: true, amount };
}

/** `decimalPlaces` comes from the service (`currencies[].decimalPlaces`): a bad one is a contract break, not payer input. */
function assertDecimalPlaces(decimalPlaces: number): void {
  if (!Number.isInteger(decimalPlaces) || decimalPlaces < 0) {
    throw new RangeError(`decimalPlaces must be a whole number >= 0, got ${decimalPlaces}: read it from currencies[].decimalPlaces`);
  }
}

function fail(code: AmountErrorCode, message: string): AmountResult {
  return { ok: false, code, message };
}

/** `'12.5'` with 2 decimals is `1250n`. Throws on text that is not canonical or too precise. */
export function toMinorUnits(amount: string, decimalPlaces: number): bigint {
  assertDecimalPlaces(decimalPlaces);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new RangeError(`toMinorUnits: ${JSON.stringify(amount)} is not a decimal amount`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimalPlaces) {
    throw new RangeError(`toMinorUnits: ${amount} has more than ${decimalPlaces} decimals`);
  }
  return BigInt((match[1] ?? '0') + fraction.padEnd(decimalPlaces, '0'));
}

/** `1250n` with 2 decimals is `'12.5'` (canonical form). */
export function fromMinorUnits(minor: bigint, decimalPlaces: number): string {
  assertDecimalPlaces(decimalPlaces);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimalPlaces + 1, '0');
  const whole = digits.slice(0, digits.length - decimalPlaces);
  const fraction = digits.slice(digits.length - decimalPlaces).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The exact sum of non-negative decimal strings of any scale, in canonical form (`'0'` for none). */
export function addAmounts(amounts: readonly string[]): string {
  const scale = Math.max(0, ...amounts.map(fractionLength));
  return fromMinorUnits(amounts.reduce((sum, amount) => sum + toMinorUnits(amount, scale), 0n), scale);
}

/** Compares two non-negative decimal strings of any scale, exactly. */
export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(fractionLength(a), fractionLength(b));
  const left = toMinorUnits(a, scale);
  const right = toMinorUnits(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** True when `raw` (a notification's amount as written) is `expected` exactly; false for an exponent or a sign. */
export function sameAmount(raw: string, expected: string): boolean {
  try {
    return compareAmounts(raw, expected) === 0;
  } catch {
    return false; // an exponent or a sign: not the digits we sent
  }
}

function fractionLength(amount: string): number {
  const dot = amount.indexOf('.');
  return dot < 0 ? 0 : amount.length - dot - 1;
}

/**
 * Canonical decimal text of a number read from JSON (bounds, fees). Those numbers came from text
 * with few digits, and `String(number)` gives back the shortest text that round-trips, which is it.
 */
export function amountFromNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`amountFromNumber: ${value} is not finite`);
  const text = Math.abs(value) >= 1e21 || (Math.abs(value) < 1e-6 && value !== 0) ? value.toFixed(20) : String(value);
  const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return `${value < 0 ? '-' : ''}${whole}${trimmed ? `.${trimmed}` : ''}`;
}

/**
 * Formats an amount for a payer with `Intl.NumberFormat` in the currency and the payer's locale
 * (XOF and XAF show no decimals). The decimal string goes to `format` as it is: Intl formats
 * decimal strings exactly, with no float step. A code Intl does not know (`USDC`) does not throw:
 * the number is shown with the code beside it.
 *
 * Never rounds: an amount with more decimals than the currency has (`5000.5 XOF`, `12.345 USD`,
 * which the service would refuse) is shown with all of them, so what the payer reads is what the
 * order holds. Fewer decimals are padded to the currency's (`12.5 USD` is `$12.50`).
 */
export function formatAmount(amount: string, currencyCode: string, locale: string, decimalPlaces?: number): string {
  const currency = decimalPlaces ?? currencyDigits(currencyCode);
  // Intl accepts at most 100 fraction digits; parseAmount caps amounts far below that.
  const digits = Math.min(100, Math.max(currency ?? 0, fractionLength(amount)));
  const fractionOptions = currency === undefined && digits === 0 ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  // Intl's types take number | bigint, but ES2023 Intl.NumberFormat formats decimal strings exactly.
  const value = amount as unknown as number;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode, ...fractionOptions }).format(value);
  } catch {
    try {
      return `${new Intl.NumberFormat(locale, fractionOptions).format(value)}\u00a0${currencyCode}`;
    } catch {
      return `${amount} ${currencyCode}`;
    }
  }
}

function currencyDigits(currencyCode: string): number | undefined {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/** An amount to be written as a JSON number with exactly these digits. */
export class JsonDecimal {
  constructor(readonly digits: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?$/.test(digits)) throw new TypeError(`jsonDecimal: ${JSON.stringify(digits)} is not a decimal amount`);
  }
}

export function jsonDecimal(amount: string): JsonDecimal {
  return new JsonDecimal(amount);
}

/**
 * JSON.stringify, except that `jsonDecimal('0.07')` values are written as the number `0.07` with
 * exactly those digits. Node 20 and older browsers have no `JSON.rawJSON`, so each decimal is first
 * written as a unique string token and the quoted token is then replaced by the digits.
 *
 * @example
 * stringifyJsonWithDecimals({ amount: jsonDecimal('0.07') }); // '{"amount":0.07}'
 */
export function stringifyJsonWithDecimals(value: unknown): string {
  for (;;) {
    const marker = `__momo_decimal_${Math.random().toString(36).slice(2)}_`;
    const decimals: string[] = [];
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (inner instanceof JsonDecimal) {
        decimals.push(inner.digits);
        return `${marker}${decimals.length - 1}`;
      }
      return inner;
    });
    if (decimals.length === 0) return text;
    // The marker is random; should the data itself ever contain it, draw another rather than
    // turn the merchant's text into a number.
    if (text.split(marker).length - 1 !== decimals.length) continue;
    return text.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_match, index: string) => decimals[Number(index)]!);
  }
}
