/**
 * Reads `amount` as the service does: a JSON number whose decimals are counted on the RAW text
 * (§2.1 Excess precision: `5000.0` in XOF is refused, never rounded; `JSON.parse` would have
 * turned it into 5000 and hidden the mistake).
 */

export type RawAmountResult =
  | { ok: true; /** canonical decimal string */ amount: string; /** decimals as written */ decimalsWritten: number }
  | { ok: false; message: string };

/**
 * `raw` is the exact text of a JSON number (parseRawJsonObject's `raw`), or a query-string value.
 * Exponents are expanded (`1e3` is 1000, `1.5e-1` has 2 decimals as written) because a JSON
 * parser accepts them; only a plain decimal survives a query string check too.
 */
export function readRawAmount(raw: string): RawAmountResult {
  const match = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(raw.trim());
  if (!match) return { ok: false, message: `amount must be a number (got ${JSON.stringify(raw.slice(0, 32))})` };
  const [, sign = '', integer = '', fraction = '', exponentText] = match;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 30) {
    return { ok: false, message: 'amount has an exponent the service cannot hold; write it as a plain decimal' };
  }
  // Shift the decimal point by the exponent, on digits only.
  let digits = integer + fraction;
  let pointAt = integer.length + exponent;
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  }
  if (pointAt > digits.length) digits = digits + '0'.repeat(pointAt - digits.length);
  const intPart = digits.slice(0, pointAt).replace(/^0+(?=.)/, '') || '0';
  const fracPart = digits.slice(pointAt);
  const decimalsWritten = fracPart.length;
  const trimmedFraction = fracPart.replace(/0+$/, '');
  const canonical = trimmedFraction ? `${intPart}.${trimmedFraction}` : intPart;
  if (sign === '-' && canonical !== '0') return { ok: false, message: 'amount must be greater than 0' };
  if (canonical === '0') return { ok: false, message: 'amount must be greater than 0' };
  return { ok: true, amount: canonical, decimalsWritten };
}

/** §2.1: more decimals than the currency allows is a VALIDATION_ERROR; message says what to do. */
export function checkDecimals(decimalsWritten: number, decimalPlaces: number, currencyCode: string): string | undefined {
  if (decimalsWritten <= decimalPlaces) return undefined;
  return decimalPlaces === 0
    ? `amount has ${decimalsWritten} decimal(s) but ${currencyCode} has none: send a whole number (e.g. 5000, not 5000.0)`
    : `amount has ${decimalsWritten} decimals but ${currencyCode} allows ${decimalPlaces}: it is never rounded, send at most ${decimalPlaces}`;
}
