/**
 * The payment service's webhook wire protocol: the signed string, HMAC signatures, the raw-JSON walk
 * that keeps a body's received key order, verifying and signing. Shared by the companion (it
 * verifies) and the sandbox (it signs), so neither imports the other; imports only
 * `contract/upstream/` (the notification's fields).
 */
export { verifyWebhook, readVerifiedWebhook, DEFAULT_TOLERANCE_MS, type VerifyWebhookOptions, type WebhookNotification } from './verify.js';
export { signWebhook, rawNumber, type RawNumber, type SignWebhookOptions, type WebhookFieldList } from './sign.js';
export {
  parseRawJsonObject,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  type RawEntry,
  type RawEntryKind,
  type RawJsonOptions,
} from './raw-json.js';
export { buildSignedString, SIGNATURE_KEY } from './signed-string.js';
export {
  RawJsonError,
  WebhookVerificationError,
  webhookRefusalReasons,
  type RawJsonErrorCode,
  type WebhookRefusalReason,
} from './errors.js';
