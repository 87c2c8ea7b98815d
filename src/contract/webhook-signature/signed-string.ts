/**
 * The string the service signs, built from the body's entries in text order.
 */
import type { RawEntry } from './raw-json.js';

/** The top-level key that carries the signature and is left out of the signed string. */
export const SIGNATURE_KEY = 'signature';

/**
 * `path + value` for every entry but `signature`, with no separator. Values as the body
 * carries them: numbers exactly as written (`5000.0` stays `5000.0`), strings decoded,
 * `true`/`false`, `null`. Nested keys carry their parent's path (`nextAction.authorizationUrl`).
 * Undefined values (skipped by §6.3.3) cannot occur in JSON text.
 *
 * @example
 * buildSignedString(parseRawJsonObject('{"status":"completed","amount":5000.0,"signature":"..."}'))
 * // 'statuscompletedamount5000.0'
 */
export function buildSignedString(entries: readonly RawEntry[]): string {
  let signed = '';
  for (const entry of entries) {
    if (entry.path === SIGNATURE_KEY) continue;
    signed += entry.path + entry.raw;
  }
  return signed;
}
