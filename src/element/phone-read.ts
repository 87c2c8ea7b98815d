/**
 * Reads a typed number to E.164 with the bundled metadata (libphonenumber-js's own `metadata.min.json`,
 * filtered to the served countries): the same rules libphonenumber-js applies with that metadata,
 * written out for these countries.
 *
 * Why by hand, against the house rule: libphonenumber-js's parser costs 7.5 KB gzip of the
 * script-tag file (its Metadata class, the formatter its PhoneNumber class pulls in, RFC 3966 and
 * extension handling), a third of the budget and 1.2 s on Slow 3G before a payer can type (issue 10).
 * These rules take about 0.6 KB. The companion still validates every number with libphonenumber-js
 * and the full metadata, and test/element/phone-read.test.ts holds this reader to libphonenumber-js's
 * verdict on every served country, so an upgrade of the metadata that this reader misreads fails there.
 *
 * The rules (libphonenumber-js `parse`, `extractNationalNumber`, `checkNumberLength`, `isValid`):
 * a `+` or `00` number starts with a calling code of 1 to 3 digits; a national number takes the
 * chosen country's, and may start with that calling code typed without its `+`; a national prefix
 * (`0`, or the plan's prefix-for-parsing with its transform rule) is stripped unless that spoils a
 * number that matched or leaves an impossible length; the rest must match the plan's pattern.
 */
import type { PhoneErrorCode } from '../contract/phone-error-code.js';

/** One numbering plan of libphonenumber-js's compressed metadata (version 4 layout). */
type Plan = [
  callingCode: string,
  iddPrefix: string,
  nationalNumberPattern: string,
  possibleLengths: number[],
  formats?: unknown,
  nationalPrefix?: string | 0,
  nationalPrefixFormattingRule?: unknown,
  nationalPrefixForParsing?: string | 0,
  nationalPrefixTransformRule?: string | 0,
];

export interface PlanMetadata {
  country_calling_codes: Record<string, readonly string[]>;
  countries: Record<string, unknown>;
}

export type ReadPhone = { ok: true; e164: string } | { ok: false; code: PhoneErrorCode };

// What people type around digits: spaces (also non-breaking), dashes, dots, brackets, slashes.
const separators = /[\s\u00a0\u202f\-.()/\u2010-\u2015]/g;

const matches = (digits: string, plan: Plan) => new RegExp(`^(?:${plan[2]})$`).test(digits);

function lengthVerdict(digits: string, plan: Plan): 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH' | 'IS_POSSIBLE' {
  const lengths = plan[3];
  if (lengths.includes(digits.length)) return 'IS_POSSIBLE';
  if (digits.length < lengths[0]!) return 'TOO_SHORT';
  return digits.length > lengths[lengths.length - 1]! ? 'TOO_LONG' : 'INVALID_LENGTH';
}

/** libphonenumber-js `extractNationalNumber`: the national (significant) number of complete digits. */
function national(digits: string, plan: Plan): string {
  const forParsing = plan[7] || plan[5];
  if (!digits || !forParsing) return digits;
  const prefix = new RegExp(`^(?:${forParsing})`);
  const found = prefix.exec(digits);
  if (!found) return digits;
  const transform = plan[8];
  const captured = found.length > 1 && found[found.length - 1];
  const stripped = transform && captured ? digits.replace(prefix, transform) : digits.slice(found[0].length);
  if (stripped === digits) return digits;
  if (matches(digits, plan) && !matches(stripped, plan)) return digits;
  const verdict = lengthVerdict(stripped, plan);
  return verdict === 'TOO_SHORT' || verdict === 'INVALID_LENGTH' ? digits : stripped;
}

/** The typed text without separators, a leading `00` written `+` (the international prefix in every served country). */
export function compactNumber(typed: string): string {
  const text = typed.trim().replace(separators, '');
  return text.startsWith('00') ? `+${text.slice(2)}` : text;
}

/**
 * The calling code an international number starts with (`+237 6…`, `00237…` → `237`), among the
 * metadata's; undefined for a national number or while the code is incomplete.
 */
export function callingCodeOf(typed: string, metadata: PlanMetadata): string | undefined {
  const text = compactNumber(typed);
  if (!text.startsWith('+') || text[1] === '0') return undefined;
  // Calling codes are prefix-free: the first that matches is the one.
  for (let length = 1; length <= 3; length++) {
    const code = text.slice(1, 1 + length);
    if (code.length === length && Object.hasOwn(metadata.country_calling_codes, code)) return code;
  }
  return undefined;
}

/**
 * @example
 * readPhone('01 97 00 00 00', 'BJ', metadata); // { ok: true, e164: '+2290197000000' }
 * readPhone('+229 01 97', undefined, metadata); // { ok: false, code: 'TOO_SHORT' }
 */
export function readPhone(typed: string, country: string | undefined, metadata: PlanMetadata): ReadPhone {
  const refuse = (code: PhoneErrorCode): ReadPhone => ({ ok: false, code });
  const text = compactNumber(typed);
  if (text === '') return refuse('EMPTY');
  if (!/^\+?\d+$/.test(text)) return refuse('NOT_A_NUMBER');
  const planOf = (code: string | undefined) => (code && Object.hasOwn(metadata.countries, code) ? (metadata.countries[code] as Plan) : undefined);
  const international = text.startsWith('+');
  if (!international && !planOf(country)) return refuse('INVALID_COUNTRY');
  // Not yet a number: two digits, or three after a + (libphonenumber-js `isViablePhoneNumber`).
  if (text.length < (international ? 4 : 2)) return refuse('TOO_SHORT');

  let plan: Plan | undefined;
  let digits = text;
  if (international) {
    // Calling codes are prefix-free and never start with 0.
    for (let length = 1; length <= 3 && !plan; length++) {
      const owners = text[1] === '0' ? undefined : metadata.country_calling_codes[text.slice(1, 1 + length)];
      plan = planOf(owners?.[0]);
      digits = text.slice(1 + length);
    }
  } else {
    plan = planOf(country);
    // The calling code typed without its +: kept off when that makes the number read, or fit.
    if (plan && digits.startsWith(plan[0])) {
      const shorter = digits.slice(plan[0].length);
      const whole = national(digits, plan);
      if ((!matches(whole, plan) && matches(national(shorter, plan), plan)) || lengthVerdict(whole, plan) === 'TOO_LONG') digits = shorter;
    }
  }
  if (!plan) return refuse('INVALID_COUNTRY');
  const nsn = national(digits, plan);
  if (nsn.length < 2) return refuse('TOO_SHORT');
  if (nsn.length > 17) return refuse('TOO_LONG');
  if (matches(nsn, plan)) return { ok: true, e164: `+${plan[0]}${nsn}` };
  const verdict = lengthVerdict(nsn, plan);
  return refuse(verdict === 'TOO_SHORT' || verdict === 'TOO_LONG' ? verdict : 'INVALID');
}
