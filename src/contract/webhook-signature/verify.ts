/**
 * Verifies an outgoing notification of the service from its RAW request text and
 * returns it typed. Modelled on stripe-node's Webhooks: Web Crypto, constant-time comparison, an
 * injectable clock, one error class whose messages diagnose.
 */
import { describeSchemaError } from '../upstream/describe-issue.js';
import { webhookBodySchema, type WebhookNotification } from '../upstream/webhook.js';
import { RawJsonError, WebhookVerificationError, type RawJsonErrorCode, type WebhookRefusalReason } from './errors.js';
import { hmacSha512Hex, timingSafeEqualText } from './hmac.js';
import { DEFAULT_MAX_BYTES, parseRawJsonObject, type RawEntry } from './raw-json.js';
import { buildSignedString, SIGNATURE_KEY } from './signed-string.js';

export type { WebhookNotification };

export interface VerifyWebhookOptions {
  /** Every active webhook secret (`whsec_...`); a match with any one is accepted (during a rotation, list the old and the new). */
  secrets: readonly string[];
  /** Largest accepted gap between `_timestamp` and now, either way. Default 300_000 (5 minutes). */
  toleranceMs?: number;
  /** Clock in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

export const DEFAULT_TOLERANCE_MS = 300_000;

/** 64 bytes of HMAC-SHA512 in lowercase hex. */
const SIGNATURE_PATTERN = /^[0-9a-f]{128}$/;
/** `_timestamp` is an integer of milliseconds, written without fraction or exponent. */
const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks a webhook body's signature against the configured secrets, its freshness and its shape.
 * Pass the request text exactly as received (`await request.text()`), never a re-serialised object:
 * the signature covers the key order and the number spelling of the text.
 * Throws `WebhookVerificationError` (with a `reason`) when the notification must not be trusted.
 * Even when verified, a notification is a trigger, not an authority (no replay protection).
 *
 * @example
 * const notification = await verifyWebhook(await request.text(), { secrets: [process.env.WEBHOOK_SECRET!] });
 * if (isFinalWebhookStatus(notification.status)) await settle(notification.orderId, notification.status);
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions,
): Promise<WebhookNotification> {
  const secrets = options.secrets.filter((secret) => secret.length > 0);
  if (secrets.length === 0) {
    throw refuse(
      'NO_SECRETS',
      'no webhook secret is configured; create one (POST /v1/webhook-secrets or the dashboard) with the account whose API key creates the payments, and pass it in `secrets`',
    );
  }
  const entries = readEntries(decode(rawBody));
  const fields = findSignedFields(entries);
  const signedString = buildSignedString(entries);
  if (!(await matchesAnySecret(signedString, fields.signature, secrets))) {
    throw refuse(
      'SIGNATURE_MISMATCH',
      'the signature matches none of the configured secrets. Was the body parsed and re-serialised? ' +
        'Pass the raw request text. Is the secret the one of the user whose API key created the ' +
        'transaction (a colleague\'s secret does not sign it)? During a rotation, pass both the old and the new secret.',
    );
  }
  checkFreshness(fields.timestamp, options.now ?? Date.now, options.toleranceMs ?? DEFAULT_TOLERANCE_MS);
  return toNotification(entries, fields);
}

/**
 * Reads a body that was verified when it arrived (the companion's inbox keeps it so), without
 * checking its signature or age again: a secret rotated out since, or the time spent in the inbox,
 * must not lose a notification that was genuine when received.
 */
export function readVerifiedWebhook(rawBody: string | Uint8Array): WebhookNotification {
  const entries = readEntries(decode(rawBody));
  return toNotification(entries, findSignedFields(entries));
}

function toNotification(entries: readonly RawEntry[], fields: SignedFields): WebhookNotification {
  const parsed = webhookBodySchema.safeParse(toObject(entries));
  if (!parsed.success) {
    throw refuse(
      'INVALID_BODY',
      `${describeSchemaError('the signed webhook body', parsed.error)}; the service's body may have changed (see assumptions.md "Webhook")`,
    );
  }
  return { ...parsed.data, rawAmount: fields.rawAmount ?? '' };
}

function refuse(reason: WebhookRefusalReason, message: string, cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(reason, message, cause === undefined ? undefined : { cause });
}

function decode(rawBody: string | Uint8Array): string {
  if (typeof rawBody === 'string') return rawBody;
  // Checked before decoding so an oversized body costs nothing more.
  if (rawBody.byteLength > DEFAULT_MAX_BYTES) {
    throw refuse('TOO_LARGE', `the body is over ${DEFAULT_MAX_BYTES} bytes; a webhook body is a few hundred bytes`);
  }
  try {
    return utf8.decode(rawBody);
  } catch (error) {
    throw refuse('NOT_JSON_OBJECT', 'the body is not valid UTF-8 text; pass the raw request bytes or text', error);
  }
}

/** Parse failures map onto refusal reasons; invalid JSON and arrays are "not a JSON object". */
const reasonOfRawJsonCode: Record<RawJsonErrorCode, WebhookRefusalReason> = {
  INVALID_JSON: 'NOT_JSON_OBJECT',
  NOT_JSON_OBJECT: 'NOT_JSON_OBJECT',
  ARRAY_NOT_ALLOWED: 'NOT_JSON_OBJECT',
  DUPLICATE_KEY: 'DUPLICATE_KEY',
  FORBIDDEN_KEY: 'FORBIDDEN_KEY',
  DOTTED_KEY: 'DOTTED_KEY',
  TOO_DEEP: 'TOO_DEEP',
  TOO_LARGE: 'TOO_LARGE',
};

function readEntries(text: string): RawEntry[] {
  try {
    return parseRawJsonObject(text);
  } catch (error) {
    if (!(error instanceof RawJsonError)) throw error;
    const hint = error.code === 'INVALID_JSON' ? '; pass the raw request text, not a parsed object' : '';
    throw refuse(reasonOfRawJsonCode[error.code], `${error.message}${hint}`, error);
  }
}

interface SignedFields {
  signature: string;
  timestamp: number;
  rawAmount: string | undefined;
}

/** Presence and shape of the fields the check itself needs, before any HMAC is spent. */
function findSignedFields(entries: readonly RawEntry[]): SignedFields {
  let signature: RawEntry | undefined;
  let nonce: RawEntry | undefined;
  let timestamp: RawEntry | undefined;
  let amount: RawEntry | undefined;
  for (const entry of entries) {
    // Top-level keys only: a nested `nextAction.signature` is an ordinary signed field.
    if (entry.path === SIGNATURE_KEY) signature = entry;
    else if (entry.path === '_nonce') nonce = entry;
    else if (entry.path === '_timestamp') timestamp = entry;
    else if (entry.path === 'amount') amount = entry;
  }
  if (signature === undefined) {
    throw refuse('MISSING_SIGNATURE', 'the body has no "signature" field; is this request a notification of the service?');
  }
  if (signature.kind !== 'string' || !SIGNATURE_PATTERN.test(signature.raw)) {
    throw refuse(
      'MALFORMED_SIGNATURE',
      '"signature" must be 128 lowercase hex characters (an HMAC-SHA512); the body was altered or is not from the service',
    );
  }
  if (nonce === undefined) {
    throw refuse('MISSING_NONCE', 'the body has no "_nonce" field, which the service always signs');
  }
  if (timestamp === undefined) {
    throw refuse('MISSING_TIMESTAMP', 'the body has no "_timestamp" field, which the service always signs');
  }
  const milliseconds = Number(timestamp.raw);
  if (timestamp.kind !== 'number' || !TIMESTAMP_PATTERN.test(timestamp.raw) || !Number.isSafeInteger(milliseconds)) {
    throw refuse(
      'MALFORMED_TIMESTAMP',
      '"_timestamp" must be an integer number of milliseconds since the epoch, written without quotes, fraction or exponent',
    );
  }
  return { signature: signature.raw, timestamp: milliseconds, rawAmount: amount?.kind === 'number' ? amount.raw : undefined };
}

async function matchesAnySecret(signedString: string, signature: string, secrets: readonly string[]): Promise<boolean> {
  for (const secret of secrets) {
    if (timingSafeEqualText(await hmacSha512Hex(secret, signedString), signature)) return true;
  }
  return false;
}

/** The service has no replay protection; `_timestamp` lets an abnormally old notification be ignored. */
function checkFreshness(timestamp: number, now: () => number, toleranceMs: number): void {
  const age = now() - timestamp;
  if (age > toleranceMs) {
    throw refuse(
      'TIMESTAMP_TOO_OLD',
      `the notification is signed but ${Math.round(age / 1000)} s old (tolerance ${toleranceMs / 1000} s); ` +
        'it may be a replay. Check the server clock; read the transaction status in the dashboard if an outcome is missing',
    );
  }
  if (-age > toleranceMs) {
    throw refuse(
      'TIMESTAMP_IN_FUTURE',
      `the notification is signed but dated ${Math.round(-age / 1000)} s in the future (tolerance ${toleranceMs / 1000} s); check this server's clock`,
    );
  }
}

/** Rebuilds the object from the entries; forbidden and dotted keys were refused by the reader. */
function toObject(entries: readonly RawEntry[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const entry of entries) {
    let target = root;
    const parts = entry.path.split('.');
    for (let i = 0; i < parts.length - 1; i++) {
      const part = parts[i]!;
      let inner = target[part];
      if (typeof inner !== 'object' || inner === null) {
        inner = {};
        target[part] = inner;
      }
      target = inner as Record<string, unknown>;
    }
    target[entry.key] = entry.value;
  }
  return root;
}
