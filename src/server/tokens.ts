/**
 * Unguessable ids from Web Crypto, so the companion runs on any runtime with `crypto`.
 *
 * The token hash is computed on every page request and every checkout creation. On Node,
 * `subtle.digest` crosses the libuv thread pool (measured here: about half of a create-checkout
 * request, bench/service.ts), so where `node:crypto` is reachable (through
 * `process.getBuiltinModule`, never imported, as webhook/hmac.ts does) the same SHA-256 is
 * computed synchronously. Both give the same string (test/server/tokens.test.ts).
 */
import type * as NodeCrypto from 'node:crypto';
import { nodeBuiltin } from '../contract/node-builtin.js';

export function randomId(bytes = 32): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return base64url(data);
}

const nodeCrypto = (() => {
  const module = nodeBuiltin<typeof NodeCrypto>('node:crypto');
  return typeof module?.createHash === 'function' ? module : undefined;
})();

export async function sha256Base64url(text: string): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash('sha256').update(text, 'utf8').digest('base64url');
  return webCryptoSha256Base64url(text);
}

/** The portable path (Deno, Bun, edge runtimes); exported for the test that compares both. */
export async function webCryptoSha256Base64url(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/** Bytes as URL-safe base64 without padding (ids, token hashes, signatures). */
export function base64url(data: Uint8Array): string {
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
