/**
 * The server API's credential check: `Authorization: Bearer <serverSecret>`, compared in constant
 * time. Both sides are hashed with SHA-256 first, so the comparison always runs over 32 bytes
 * whatever was sent (no length leak), then compared byte by byte without an early exit.
 *
 * Hand-written rather than `crypto.timingSafeEqual` because the companion runs on any runtime with
 * Web Crypto (Deno, Bun, edge), where node:crypto may not exist; over two fixed-size digests the
 * XOR loop below is the same technique.
 */
import { CompanionConfigError } from './options.js';

export const minServerSecretLength = 32;

export function checkServerSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length < minServerSecretLength) {
    throw new CompanionConfigError(
      `serverSecret (MOMO_SERVER_SECRET) must be at least ${minServerSecretLength} characters. Generate one with: openssl rand -hex 32`,
    );
  }
}

/** Returns a check of a presented Bearer value against the secret. */
export function createSecretCheck(secret: string): (presented: string) => Promise<boolean> {
  checkServerSecret(secret);
  const expected = digest(secret);
  return async (presented) => {
    const [want, got] = await Promise.all([expected, digest(presented)]);
    let difference = 0;
    for (let index = 0; index < want.length; index++) difference |= want[index]! ^ got[index]!;
    return difference === 0;
  };
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
