import type { PhoneErrorCode } from '../contract/phone-error-code.js';
import { metadataCountries, phoneMetadata } from './phone-metadata.generated.js';
import { readPhone } from './phone-read.js';

export type PhoneCheck =
  | { kind: 'valid'; phoneNumber: string }
  /** A country the bundled metadata does not hold: sent as typed, the companion validates it fully. */
  | { kind: 'elsewhere'; phoneNumber: string }
  | { kind: 'invalid'; code: PhoneErrorCode };

/** Reads what the payer typed with the bundled (served-countries) metadata. */
export function checkPhone(typed: string, country: string | undefined): PhoneCheck {
  const bundled = country !== undefined && metadataCountries.includes(country);
  const result = readPhone(typed, bundled ? country : undefined, phoneMetadata);
  if (result.ok) return { kind: 'valid', phoneNumber: result.e164 };
  const international = /^\s*(\+|00)/.test(typed);
  if (result.code === 'INVALID_COUNTRY' && (international || (country !== undefined && !bundled))) {
    return { kind: 'elsewhere', phoneNumber: typed.trim() };
  }
  return { kind: 'invalid', code: result.code };
}
