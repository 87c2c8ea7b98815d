/**
 * Test helpers. The oracle is node:crypto's createHmac over a signed string written BY HAND in the
 * test, independent of the code under test (raw-json, signed-string, sign).
 */
import { createHmac } from 'node:crypto';

export const SECRET = 'whsec_test_0123456789abcdef';
export const OTHER_SECRET = 'whsec_test_fedcba9876543210';
export const NOW = 1_700_000_000_000;
export const now = () => NOW;

export function oracleSignature(signedString: string, secret: string = SECRET): string {
  return createHmac('sha512', secret).update(signedString, 'utf8').digest('hex');
}

/** Appends `"signature":"<hmac of signedString>"` as the last member of a body written by hand. */
export function bodyWithSignature(unsignedBody: string, signedString: string, secret: string = SECRET): string {
  const trimmed = unsignedBody.trimEnd();
  if (!trimmed.endsWith('}')) throw new Error('test body must end with "}"');
  return `${trimmed.slice(0, -1)},"signature":"${oracleSignature(signedString, secret)}"}`;
}
