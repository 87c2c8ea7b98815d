/**
 * Phone numbers to strict E.164 (§2.2), with libphonenumber-js's core functions and metadata passed
 * in: the browser passes metadata restricted to the served countries (a few KB), the server the
 * full metadata (`phone-full.ts`). The number is also who receives the prompt (§2.2): a valid but
 * wrong number rings someone else's phone, so we refuse what we cannot read for certain.
 */
import {
  parsePhoneNumberWithError,
  ParseError,
  validatePhoneNumberLength,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';

export type { MetadataJson };

export type PhoneErrorCode = 'EMPTY' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_COUNTRY' | 'NOT_A_NUMBER' | 'NOT_MOBILE' | 'INVALID';

export type PhoneResult =
  | { ok: true; e164: string; country: string | undefined; international: string; national: string }
  | { ok: false; code: PhoneErrorCode; message: string };

export interface NormalizePhoneOptions {
  /** ISO 3166 alpha-2 country for numbers typed in national form (`07 00 00 00 01`). */
  defaultCountry?: string;
  metadata: MetadataJson;
}

const messages: Record<PhoneErrorCode, string> = {
  EMPTY: 'Enter your mobile money phone number.',
  TOO_SHORT: 'This number is too short: check that no digit is missing.',
  TOO_LONG: 'This number is too long: check for an extra digit.',
  INVALID_COUNTRY: 'Choose your country, or type the number with its country code (for example +225).',
  NOT_A_NUMBER: 'Type only digits, spaces and the + sign.',
  NOT_MOBILE: 'This is not a mobile number: use the number of your mobile money account.',
  INVALID: 'This number does not exist in this country: check it.',
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
  const defaultCountry = options.defaultCountry?.toUpperCase() as CountryCode | undefined;
  if (!text.startsWith('+') && !defaultCountry) return refuse('INVALID_COUNTRY');

  let parsed;
  try {
    parsed = parsePhoneNumberWithError(text, defaultCountry ? { defaultCountry } : {}, options.metadata);
  } catch (error) {
    const code = error instanceof ParseError ? error.message : 'INVALID';
    return refuse(code === 'INVALID_COUNTRY' || code === 'TOO_SHORT' || code === 'TOO_LONG' || code === 'NOT_A_NUMBER' ? code : 'INVALID');
  }
  if (!parsed.isValid()) {
    const length = validatePhoneNumberLength(text, defaultCountry ? { defaultCountry } : {}, options.metadata);
    if (length === 'TOO_SHORT' || length === 'TOO_LONG' || length === 'INVALID_COUNTRY') return refuse(length);
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

function refuse(code: PhoneErrorCode): PhoneResult {
  return { ok: false, code, message: messages[code] };
}

/**
 * For logs: the `+`, the country calling code and the last 2 digits (`+229••••••••01`). Never
 * throws; text that does not look like a number is masked whole.
 */
export function redactPhone(e164: string): string {
  const digits = e164.replace(/\D/g, '');
  if (digits.length < 6) return '•'.repeat(Math.max(digits.length, 3));
  const codeLength = callingCodeLength(digits);
  return `+${digits.slice(0, codeLength)}${'•'.repeat(digits.length - codeLength - 2)}${digits.slice(-2)}`;
}

// Calling codes are prefix-free: 1 and 7 are one digit; these two-digit ones, and all others three.
const twoDigitCodes = new Set(['20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98']);

function callingCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  return twoDigitCodes.has(digits.slice(0, 2)) ? 2 : 3;
}
