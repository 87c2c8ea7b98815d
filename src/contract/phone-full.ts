/**
 * Server-side phone normalisation with libphonenumber-js's full ("max") metadata, which knows
 * mobile from fixed-line numbers everywhere, and says "too short" or "too long" precisely. Kept
 * apart from `phone.ts` so browser code that imports `phone.ts` never pulls in the whole metadata
 * (~40 KB gzip).
 */
import { validatePhoneNumberLength } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/max/metadata';
import { normalizePhone, type MetadataJson, type PhoneResult } from './phone.js';

export function normalizePhoneFull(input: string, defaultCountry?: string): PhoneResult {
  return normalizePhone(input, {
    metadata: metadata as unknown as MetadataJson,
    explainLength: validatePhoneNumberLength,
    ...(defaultCountry ? { defaultCountry } : {}),
  });
}
