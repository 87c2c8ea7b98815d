/**
 * Typed errors of webhook reading and verification. Messages say what to do and never carry the
 * secret or the body (at most a key name, cut short).
 */

export type RawJsonErrorCode =
  | 'INVALID_JSON'
  | 'NOT_JSON_OBJECT'
  | 'ARRAY_NOT_ALLOWED'
  | 'DUPLICATE_KEY'
  | 'FORBIDDEN_KEY'
  | 'DOTTED_KEY'
  | 'TOO_DEEP'
  | 'TOO_LARGE';

/** Thrown by `parseRawJsonObject` when the text is not one acceptable JSON object. */
export class RawJsonError extends Error {
  override readonly name = 'RawJsonError';
  constructor(
    readonly code: RawJsonErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const webhookRefusalReasons = [
  'NO_SECRETS',
  'NOT_JSON_OBJECT',
  'DUPLICATE_KEY',
  'FORBIDDEN_KEY',
  'DOTTED_KEY',
  'TOO_DEEP',
  'TOO_LARGE',
  'MISSING_SIGNATURE',
  'MALFORMED_SIGNATURE',
  'MISSING_NONCE',
  'MISSING_TIMESTAMP',
  'MALFORMED_TIMESTAMP',
  'SIGNATURE_MISMATCH',
  'TIMESTAMP_TOO_OLD',
  'TIMESTAMP_IN_FUTURE',
  'INVALID_BODY',
] as const;
export type WebhookRefusalReason = (typeof webhookRefusalReasons)[number];

/**
 * Thrown by `verifyWebhook` when a notification must not be trusted. Answer the service with a
 * 4xx (or 2xx to stop nothing: it never retries) and log `reason`; `NO_SECRETS` is a setup
 * error of this server, not of the sender.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookRefusalReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${reason}: ${message}`, options);
  }
}
