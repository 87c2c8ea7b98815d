/**
 * Part `http-answers/` (docs/architecture.md): how the domain's outcomes are said over HTTP. Sits
 * above the parts that decide (notifications/, deliveries/) and below the routes that answer
 * (page-routes/, server-api/, console/) and the composition root, so every way in answers alike.
 *
 * A service notification's outcome, for each way it comes in: the webhook route (the Hono route
 * and the node:http fast path both take `answerToService`), the server API's relay
 * (`answerToRelay`), and the library's `handleWebhook` (`webhookResultOf`, its published shape).
 */
import type { PaymentState } from '../../contract/companion.js';
import type { ReceiveOutcome, RelayOutcome } from '../notifications/notification-types.js';
import { maxNotificationBytes } from '../notifications/receive-notification.js';

export interface NotificationAnswer {
  status: 200 | 400 | 401 | 413 | 503;
  body: string;
}

/** What `Companion.handleWebhook` resolves to (published: kept in the shape 0.1.0 gave it). */
export type WebhookResult =
  | { status: 200; outcome: 'applied' | 'duplicate' | 'ignored'; orderId?: string; state?: PaymentState }
  | { status: 400 | 401; outcome: 'refused'; reason: string; message: string };

/** A refusal the service's sender caused (a bad signature, no secret here) is 401; a bad body 400. */
const refusalStatus = (reason: string): 400 | 401 => (reason === 'SIGNATURE_MISMATCH' || reason === 'NO_SECRETS' ? 401 : 400);

// Built once: the webhook route answers thousands of notifications a second.
const received: NotificationAnswer = { status: 200, body: '{"received":true}' };
const notKept: NotificationAnswer = { status: 503, body: '{"error":"storage unavailable"}' };

/** The answer to a body over the limit, on every way in (an adapter answers it unread). */
export const tooLargeAnswer: NotificationAnswer = { status: 413, body: '{"error":"body too large"}' };

/** The limit and its answer, as the companion hands them to the adapters. */
export const webhookBodyLimit = { maxBytes: maxNotificationBytes, tooLarge: tooLargeAnswer } as const;

/**
 * The webhook route's answer to the service. A duplicate is received (the service must not think
 * it failed); a notification the store could not keep is 503, so the service's record shows the
 * miss rather than a delivery that was lost.
 */
export function answerToService(outcome: ReceiveOutcome): NotificationAnswer {
  switch (outcome.kind) {
    case 'kept':
    case 'duplicate':
      return received;
    case 'refused':
      return { status: refusalStatus(outcome.reason), body: JSON.stringify({ error: outcome.reason }) };
    case 'unavailable':
      return notKept;
    case 'too-large':
      return tooLargeAnswer;
  }
}

/** `handleWebhook`'s result; a notification the store could not keep is thrown, as it always was. */
export function webhookResultOf(outcome: RelayOutcome): WebhookResult {
  switch (outcome.kind) {
    case 'refused':
      return { status: refusalStatus(outcome.reason), outcome: 'refused', reason: outcome.reason, message: outcome.message };
    case 'unavailable':
      throw new Error('The notification could not be stored; the store is unreachable. Relay it again once it is back.');
    case 'duplicate':
      return { status: 200, outcome: 'duplicate', orderId: outcome.orderId };
    default:
      return { status: 200, outcome: outcome.kind, orderId: outcome.orderId, ...(outcome.state ? { state: outcome.state } : {}) };
  }
}

/** The server API's relay: a body for 200, or the error code and sentence its envelope carries. */
export type RelayAnswer =
  | { ok: true; body: { outcome: 'applied' | 'duplicate' | 'ignored'; orderId: string; state?: PaymentState } }
  | { ok: false; code: 'NOTIFICATION_REFUSED' | 'STORE_UNAVAILABLE'; message: string };

export function answerToRelay(outcome: RelayOutcome): RelayAnswer {
  switch (outcome.kind) {
    case 'refused':
      return {
        ok: false,
        code: 'NOTIFICATION_REFUSED',
        message: `${outcome.message.replace(/\.?\s*$/, '.')} Forward the body exactly as your endpoint received it (raw bytes, not parsed and re-encoded), and only notifications of the payment service.`,
      };
    case 'unavailable':
      return { ok: false, code: 'STORE_UNAVAILABLE', message: 'The notification could not be stored (the store is unreachable). Relay it again, unchanged, once the companion is ready (/readyz).' };
    case 'duplicate':
      return { ok: true, body: { outcome: 'duplicate', orderId: outcome.orderId } };
    default:
      return { ok: true, body: { outcome: outcome.kind, orderId: outcome.orderId, ...(outcome.state ? { state: outcome.state } : {}) } };
  }
}
