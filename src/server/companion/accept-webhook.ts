/**
 * Receiving a notification over HTTP (§6.4: one attempt, 30 s): verify at once, answer, and apply
 * after the answer. Shared by the Hono route and the node:http adapter's fast path, so both answer
 * the same thing.
 */
import type { Logger } from '../log.js';
import { DEFAULT_MAX_BYTES } from '../webhook/index.js';
import { applyNotification, verifyNotification, type WebhookDeps } from './webhook-handler.js';

/** The verifier's own limit (64 KB), so a body is refused before it is read, not after. */
export const maxWebhookBytes = DEFAULT_MAX_BYTES;

export interface WebhookAnswer {
  status: 200 | 400 | 401 | 413;
  body: string;
}

const received: WebhookAnswer = { status: 200, body: '{"received":true}' };

export function createWebhookAcceptor(deps: WebhookDeps & { log: Logger; background: Set<Promise<unknown>> }) {
  return async function acceptWebhook(raw: Uint8Array | string): Promise<WebhookAnswer> {
    const size = typeof raw === 'string' ? raw.length : raw.byteLength;
    if (size > maxWebhookBytes) return { status: 413, body: '{"error":"body too large"}' };
    const verified = await verifyNotification(deps, raw);
    if (!verified.ok) return { status: verified.result.status, body: JSON.stringify({ error: verified.result.outcome }) };
    const work = applyNotification(deps, verified.notification)
      .catch((error: unknown) => deps.log.error('webhook processing failed', { orderId: verified.notification.orderId, error }))
      .finally(() => deps.background.delete(work));
    deps.background.add(work);
    return received;
  };
}
