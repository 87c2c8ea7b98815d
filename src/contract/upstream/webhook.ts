/**
 * The outgoing notification's body (§6.2, assumptions.md "Webhook"). Parsed leniently: unknown
 * extra fields are kept, never an error. Only read after the signature has been checked on the raw
 * text (src/contract/webhook-signature/verify.ts): never parse a webhook with JSON.parse alone.
 */
import { z } from 'zod';

/** assumptions.md: the final statuses known. Any other status is non-final and unknown-but-monotone. */
export const finalWebhookStatuses = ['completed', 'failed'] as const;
export type FinalWebhookStatus = (typeof finalWebhookStatuses)[number];

/** `completed`, `failed`, `pending`, or any other string (non-final, unknown: log it). */
export type WebhookStatus = FinalWebhookStatus | 'pending' | (string & {});

export function isFinalWebhookStatus(status: string): status is FinalWebhookStatus {
  return (finalWebhookStatuses as readonly string[]).includes(status);
}

export const webhookBodySchema = z.looseObject({
  /** §2.2: E.164. Not re-validated here: an authentic notification is never dropped for its format. */
  phoneNumber: z.string().min(1),
  /** §2.1: major unit; the currency is not in the body (find it by orderId). */
  amount: z.number(),
  /** The caller's reconciliation key. */
  orderId: z.string().min(1),
  status: z.string().min(1) as z.ZodType<WebhookStatus>,
  /** §6.2: lowercase hex HMAC-SHA512 (its shape is checked by the verifier). */
  signature: z.string(),
  /** §6.2: signed, never verified by the service. */
  _nonce: z.string(),
  /** §6.2: milliseconds since the epoch. */
  _timestamp: z.number().int(),
  /** §6.2: only for a redirect corridor; the pay-in cannot complete without it (§6.1.3). */
  nextAction: z.looseObject({ authorizationUrl: z.url() }).optional(),
  /** §6.2: only on a synchronous pay-out failure; logic must not depend on them. */
  failureCategory: z.string().nullable().optional(),
  failureReason: z.string().nullable().optional(),
});
export type WebhookBody = z.infer<typeof webhookBodySchema>;

/** A verified notification, plus `rawAmount`: the amount exactly as written (`5000.0`), §6.3.5. */
export type WebhookNotification = WebhookBody & { rawAmount: string };
