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

/**
 * `bytes` random bytes (32 by default: a checkout's token, a console session) as URL-safe base64.
 *
 * The bytes come from the same CSPRNG as before (`crypto.getRandomValues`), only asked for 4 KiB at
 * a time instead of once per id: a call per id was a native call and a WebIDL check for 12 bytes,
 * 6-9 % of a notification's CPU on the memory store (issue 43's profile: a delivery lease's owner
 * per notification). Each pooled byte is handed out once and the used part is zeroed, so an id is
 * as unpredictable as one drawn alone, and no id's bytes stay in memory after it is made.
 */
export function randomId(bytes = 32): string {
  return base64url(randomBytes(bytes));
}

const poolBytes = 4096;
const pool = new Uint8Array(poolBytes);
/** Bytes of `pool` already handed out; the pool starts empty, so the first id fills it. */
let poolUsed = poolBytes;

function randomBytes(count: number): Uint8Array {
  if (count > poolBytes) return crypto.getRandomValues(new Uint8Array(count));
  if (poolUsed + count > poolBytes) {
    crypto.getRandomValues(pool);
    poolUsed = 0;
  }
  const bytes = pool.slice(poolUsed, poolUsed + count);
  pool.fill(0, poolUsed, poolUsed + count);
  poolUsed += count;
  return bytes;
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

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes as URL-safe base64 without padding (ids, token hashes, signatures). */
export function base64url(data: Uint8Array): string {
  // Written out (six bits a character) rather than btoa and three replaces: it runs for every id.
  let text = '';
  let index = 0;
  for (; index + 2 < data.length; index += 3) {
    const bits = (data[index]! << 16) | (data[index + 1]! << 8) | data[index + 2]!;
    text += alphabet[bits >> 18]! + alphabet[(bits >> 12) & 63]! + alphabet[(bits >> 6) & 63]! + alphabet[bits & 63]!;
  }
  const left = data.length - index;
  if (left === 1) {
    const bits = data[index]! << 16;
    text += alphabet[bits >> 18]! + alphabet[(bits >> 12) & 63]!;
  } else if (left === 2) {
    const bits = (data[index]! << 16) | (data[index + 1]! << 8);
    text += alphabet[bits >> 18]! + alphabet[(bits >> 12) & 63]! + alphabet[(bits >> 6) & 63]!;
  }
  return text;
}
