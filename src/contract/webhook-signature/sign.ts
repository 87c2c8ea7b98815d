/**
 * Signs a webhook body as the service does. Used by the sandbox to emit notifications
 * and by tests to build signed payloads.
 */
import { hmacSha512Hex } from './hmac.js';
import { parseRawJsonObject } from './raw-json.js';
import { buildSignedString, SIGNATURE_KEY } from './signed-string.js';

/**
 * A number written into the body with this exact text, e.g. `rawNumber('5000.0')`: JavaScript
 * would write `5000`, and the signature covers numbers as written, so tests need both spellings.
 */
export interface RawNumber {
  readonly rawNumber: string;
}

export function rawNumber(text: string): RawNumber {
  if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) {
    throw new TypeError(`rawNumber: ${JSON.stringify(text)} is not a JSON number`);
  }
  return { rawNumber: text };
}

/**
 * Fields as `[key, value]` pairs: a JavaScript object enumerates integer-like keys (`"1"`) first
 * whatever the order they were written in, so a body whose order matters that much (key-order tests)
 * is given as a list.
 */
export type WebhookFieldList = ReadonlyArray<readonly [string, unknown]>;

export interface SignWebhookOptions {
  /** Clock for `_timestamp` when the fields carry none. Default `Date.now`. */
  now?: () => number;
  /** `_nonce` when the fields carry none. Default: 16 random bytes in hex. */
  nonce?: string;
}

/**
 * Returns the complete JSON body text: the fields in their given order (an object's own order, or
 * a `[key, value]` list's), undefined ones skipped as the service skips them; then `_nonce` and
 * `_timestamp` when absent; then `signature` last. Numbers are written as JavaScript writes them
 * unless wrapped with `rawNumber` (or given as a `{ rawNumber: '5000.0' }` object). A `signature`
 * in the fields is replaced. Throws `TypeError` for arrays, functions and non-finite numbers, and
 * `RawJsonError` for keys a verifier refuses (dotted, `__proto__`-like, duplicated in a list).
 *
 * @example
 * const body = await signWebhook(
 *   { phoneNumber: '+22990000001', amount: 5000, orderId: 'o-1', status: 'completed' },
 *   'whsec_...',
 * );
 * await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
 */
export async function signWebhook(
  fields: Record<string, unknown> | WebhookFieldList,
  secret: string,
  options: SignWebhookOptions = {},
): Promise<string> {
  const list: WebhookFieldList = Array.isArray(fields) ? fields : Object.entries(fields);
  const members: string[] = [];
  const present = new Set<string>();
  for (const [key, value] of list) {
    if (key === SIGNATURE_KEY || value === undefined) continue;
    present.add(key);
    members.push(writeMember(key, value, key));
  }
  if (!present.has('_nonce')) {
    members.push(writeMember('_nonce', options.nonce ?? randomNonce(), '_nonce'));
  }
  if (!present.has('_timestamp')) {
    members.push(writeMember('_timestamp', (options.now ?? Date.now)(), '_timestamp'));
  }
  const unsigned = `{${members.join(',')}}`;
  // The signed string is read back from the text itself, the way a verifier reads it, so the two
  // can never disagree (and a body that verification would refuse is refused here).
  const signedString = buildSignedString(
    parseRawJsonObject(unsigned, { maxDepth: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY }),
  );
  const signature = await hmacSha512Hex(secret, signedString);
  return `${unsigned.slice(0, -1)}${members.length > 0 ? ',' : ''}"${SIGNATURE_KEY}":"${signature}"}`;
}

function writeMember(key: string, value: unknown, path: string): string {
  return `${JSON.stringify(key)}:${writeValue(value, path)}`;
}

function writeValue(value: unknown, path: string): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`signWebhook: "${path}" is ${value}, which JSON cannot hold`);
    return JSON.stringify(value);
  }
  if (isRawNumber(value)) return rawNumber(value.rawNumber).rawNumber;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const members: string[] = [];
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) members.push(writeMember(key, inner, `${path}.${key}`));
    }
    return `{${members.join(',')}}`;
  }
  throw new TypeError(
    `signWebhook: "${path}" is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}; a webhook body holds only strings, numbers, booleans, null and objects`,
  );
}

function isRawNumber(value: unknown): value is RawNumber {
  return typeof value === 'object' && value !== null && typeof (value as RawNumber).rawNumber === 'string';
}

function randomNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
