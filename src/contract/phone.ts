/**
 * Phone numbers to strict E.164, with libphonenumber-js's core functions and metadata passed
 * in: the browser passes metadata restricted to the served countries (a few KB), the server the
 * full metadata (`phone-full.ts`). The number is also who receives the prompt: a valid but
 * wrong number rings someone else's phone, so we refuse what we cannot read for certain.
 */
import {
  parsePhoneNumberWithError,
  ParseError,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';
import type { PhoneErrorCode } from './phone-error-code.js';

export type { MetadataJson, PhoneErrorCode };

export type PhoneResult =
  | { ok: true; e164: string; country: string | undefined; international: string; national: string }
  | { ok: false; code: PhoneErrorCode; message: string };

/** Says why a parsed number is not valid: libphonenumber-js's `validatePhoneNumberLength`, or similar. */
export type LengthExplainer = (text: string, options: { defaultCountry?: CountryCode }, metadata: MetadataJson) => string | undefined;

export interface NormalizePhoneOptions {
  /** ISO 3166 alpha-2 country for numbers typed in national form (`07 00 00 00 01`). */
  defaultCountry?: string;
  metadata: MetadataJson;
  /**
   * Tells "too short" from "too long" for a number that is not valid. Optional because it costs
   * 0.6 KB gzip in the browser bundle: without it such a number is refused as INVALID, whose
   * message still says to check for a missing or extra digit.
   */
  explainLength?: LengthExplainer;
}

const messages: Record<PhoneErrorCode, string> = {
  EMPTY: 'Enter your mobile money phone number.',
  TOO_SHORT: 'This number is too short: check that no digit is missing.',
  TOO_LONG: 'This number is too long: check for an extra digit.',
  INVALID_COUNTRY: 'Choose your country, or type the number with its country code (for example +225).',
  NOT_A_NUMBER: 'Type only digits, spaces and the + sign.',
  NOT_MOBILE: 'This is not a mobile number: use the number of your mobile money account.',
  INVALID: 'This number does not exist in this country: check it for a missing or extra digit.',
};

// What people type around digits: spaces (also non-breaking), dashes, dots, brackets, slashes.
const separators = /[\s\u00a0\u202f\-.()/\u2010-\u2015]/g;

/**
 * @example
 * normalizePhone('07 00 00 00 01', { defaultCountry: 'CI', metadata }); // { ok: true, e164: '+2250700000001', ... }
 * normalizePhone('+225 07 00', { metadata }); // { ok: false, code: 'TOO_SHORT', ... }
 */
export function normalizePhone(input: string, options: NormalizePhoneOptions): PhoneResult {
  let text = input.trim().replace(separators, '');
  if (text === '') return refuse('EMPTY');
  // A leading 00 is the international prefix in every served country; without a default country
  // libphonenumber-js cannot know it.
  if (text.startsWith('00')) text = `+${text.slice(2)}`;
  if (!/^\+?\d+$/.test(text)) return refuse('NOT_A_NUMBER');
  // A default country the metadata does not hold (the browser's holds only the served ones) would
  // make libphonenumber-js refuse even a number typed with its `+`: use it only when known.
  const requested = options.defaultCountry?.trim().toUpperCase();
  const defaultCountry = requested && Object.hasOwn(options.metadata.countries, requested) ? (requested as CountryCode) : undefined;
  if (!text.startsWith('+') && !defaultCountry) {
    return refuse('INVALID_COUNTRY', requested ? unservedCountryMessage : undefined);
  }

  let parsed;
  try {
    parsed = parsePhoneNumberWithError(text, defaultCountry ? { defaultCountry } : {}, options.metadata);
  } catch (error) {
    const code = error instanceof ParseError ? error.message : 'INVALID';
    if (code === 'INVALID_COUNTRY') return refuse(code, unknownCallingCodeMessage);
    return refuse(code === 'TOO_SHORT' || code === 'TOO_LONG' || code === 'NOT_A_NUMBER' ? code : 'INVALID');
  }
  if (!parsed.isValid()) {
    const length = options.explainLength?.(text, defaultCountry ? { defaultCountry } : {}, options.metadata);
    if (length === 'INVALID_COUNTRY') return refuse(length, unknownCallingCodeMessage);
    if (length === 'TOO_SHORT' || length === 'TOO_LONG') return refuse(length);
    return refuse('INVALID');
  }
  // Types are known only with "max" metadata; with smaller metadata the companion checks later.
  const type = parsed.getType();
  if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return refuse('NOT_MOBILE');
  return {
    ok: true,
    e164: parsed.number,
    country: parsed.country,
    international: parsed.formatInternational(),
    national: parsed.formatNational(),
  };
}

const unknownCallingCodeMessage = 'This country code is unknown or not served: check the digits after the +.';
const unservedCountryMessage = 'Numbers of this country cannot be read here: type the number with its country code (for example +225).';

function refuse(code: PhoneErrorCode, message = messages[code]): PhoneResult {
  return { ok: false, code, message };
}

/**
 * For logs: the `+`, the country calling code and the last 2 digits (`+229••••••••01`). Never
 * throws; text that does not look like a number is masked whole.
 */
export function redactPhone(e164: string): string {
  // Separators are tolerated so a number as typed is redacted too; anything else (letters, a
  // wrong length, not a string at all) is masked whole, without even its length.
  const compact = typeof e164 === 'string' ? e164.replace(/[\s\u00a0\u202f\-.()]/g, '') : '';
  if (!/^\+?\d{6,15}$/.test(compact)) return '•••';
  const digits = compact.replace(/^\+/, '');
  // Without its `+` the leading digits may be a trunk 0, not a calling code: show only the end.
  if (!compact.startsWith('+')) return `${'•'.repeat(digits.length - 2)}${digits.slice(-2)}`;
  const codeLength = callingCodeLength(digits);
  return `+${digits.slice(0, codeLength)}${'•'.repeat(digits.length - codeLength - 2)}${digits.slice(-2)}`;
}

// Calling codes are prefix-free: 1 and 7 are one digit; these two-digit ones, and all others three.
// Hand-written (ITU-T E.164 assignments, stable for decades) so that logging needs no metadata.
const twoDigitCodes = new Set(['20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98']);

function callingCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  return twoDigitCodes.has(digits.slice(0, 2)) ? 2 : 3;
}
