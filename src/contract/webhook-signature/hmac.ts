/**
 * HMAC-SHA512 in lowercase hex.
 *
 * The portable implementation is Web Crypto (`globalThis.crypto.subtle`): it runs on Node, Deno,
 * Bun and edge runtimes. On Node, though, every `subtle.sign` crosses WebIDL checks and the libuv
 * thread pool: measured here ~80 µs per HMAC, which caps verification near 7,000/s, far below the
 * 20,000/s target. So where `node:crypto` is reachable (found at run time through
 * `process.getBuiltinModule`, never imported, so bundles for other runtimes stay clean) the same
 * HMAC is computed synchronously with it (~9 µs). Both paths are tested against each other.
 */
import type * as NodeCrypto from 'node:crypto';
import { constantTimeEqual } from '../constant-time.js';
import { nodeBuiltin } from '../node-builtin.js';

const encoder = new TextEncoder();

/** Secrets are few (rotation keeps two); the bound only stops a caller from growing it forever. */
const KEY_CACHE_LIMIT = 64;

/** importKey costs about as much as a signature: keep one CryptoKey per secret. */
const webCryptoKeys = new Map<string, Promise<CryptoKey>>();

function webCryptoKey(secret: string): Promise<CryptoKey> {
  let key = webCryptoKeys.get(secret);
  if (key === undefined) {
    if (webCryptoKeys.size >= KEY_CACHE_LIMIT) webCryptoKeys.clear();
    key = globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-512' },
      false,
      ['sign'],
    );
    // A failed import must not stay cached.
    key.catch(() => webCryptoKeys.delete(secret));
    webCryptoKeys.set(secret, key);
  }
  return key;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i]!]!;
  return hex;
}

/** Lowercase hex HMAC-SHA512 of the UTF-8 bytes of `message`, through Web Crypto. */
export async function webCryptoHmacSha512Hex(secret: string, message: string): Promise<string> {
  const key = await webCryptoKey(secret);
  return toHex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

type NodeHmac = (secret: string, message: string) => string;

function loadNodeHmac(): NodeHmac | undefined {
  const crypto = nodeBuiltin<typeof NodeCrypto>('node:crypto');
  if (crypto?.createHmac === undefined || crypto.createSecretKey === undefined) return undefined;
  const keys = new Map<string, NodeCrypto.KeyObject>();
  return (secret, message) => {
    let key = keys.get(secret);
    if (key === undefined) {
      if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
      key = crypto.createSecretKey(encoder.encode(secret));
      keys.set(secret, key);
    }
    // Strings are hashed as UTF-8, as Web Crypto hashes `encoder.encode(message)`.
    return crypto.createHmac('sha512', key).update(message, 'utf8').digest('hex');
  };
}

/** The synchronous Node implementation, or undefined outside Node (then Web Crypto is used). */
export const nodeHmacSha512Hex: NodeHmac | undefined = loadNodeHmac();

/** Lowercase hex HMAC-SHA512 of the UTF-8 bytes of `message`. */
export function hmacSha512Hex(secret: string, message: string): Promise<string> {
  if (nodeHmacSha512Hex !== undefined) {
    try {
      return Promise.resolve(nodeHmacSha512Hex(secret, message));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return webCryptoHmacSha512Hex(secret, message);
}

/**
 * Compares two strings in time that depends only on their length: the project's one comparison
 * (contract/constant-time.ts), under the name this module has exported since 0.1.0.
 */
export const timingSafeEqualText: (a: string, b: string) => boolean = constantTimeEqual;
