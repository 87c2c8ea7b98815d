/**
 * The server API's credential check: `Authorization: Bearer <serverSecret>`, compared in constant
 * time. Both sides are hashed with SHA-256 first, so the comparison always runs over 32 bytes
 * whatever was sent (no length leak), then compared without an early exit.
 *
 * On Node, `node:crypto` (reached through `process.getBuiltinModule`, as webhook/hmac.ts does, so
 * other runtimes' bundles stay clean) hashes synchronously: Web Crypto's `subtle.digest` goes
 * through the libuv thread pool and cost about half of a create-checkout request here
 * (bench/service.ts). Elsewhere (Deno, Bun, edge) Web Crypto hashes. Either way the two 32-byte
 * digests are compared by the project's one constant-time comparison (contract/constant-time.ts).
 */
import type * as NodeCrypto from 'node:crypto';
import { constantTimeEqual } from '../../contract/constant-time.js';
import { nodeBuiltin } from '../../contract/node-builtin.js';
import { CompanionConfigError } from '../config-error.js';

export const minServerSecretLength = 32;

export function checkServerSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length < minServerSecretLength) {
    throw new CompanionConfigError(
      `serverSecret (MOMO_SERVER_SECRET) must be at least ${minServerSecretLength} characters. Generate one with: openssl rand -hex 32`,
    );
  }
  // A Bearer token has no whitespace (RFC 6750 §2.1): `Authorization: Bearer <secret>` would never
  // match, and the server API and the metrics would refuse the operator for good (issue 40, finding 9).
  if (/\s/.test(secret)) {
    throw new CompanionConfigError('serverSecret (MOMO_SERVER_SECRET) contains whitespace, which no Authorization: Bearer header can carry: generate one with openssl rand -hex 32.');
  }
}

/**
 * Returns a check of a presented Bearer value against the server secret (the server API, the
 * metrics' tokens). Not the console's sign-in check (`createSecretListCheck` in console-session.ts).
 */
export function createServerSecretCheck(secret: string): (presented: string) => Promise<boolean> {
  checkServerSecret(secret);
  const node = nodeCrypto();
  if (node) {
    const expected = node.createHash('sha256').update(secret, 'utf8').digest();
    return async (presented) => constantTimeEqual(expected, node.createHash('sha256').update(presented, 'utf8').digest());
  }
  const expected = webDigest(secret);
  return async (presented) => {
    const [want, got] = await Promise.all([expected, webDigest(presented)]);
    return constantTimeEqual(want, got);
  };
}

function nodeCrypto(): typeof NodeCrypto | undefined {
  const crypto = nodeBuiltin<typeof NodeCrypto>('node:crypto');
  return typeof crypto?.createHash === 'function' ? crypto : undefined;
}

async function webDigest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
