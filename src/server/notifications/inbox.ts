/**
 * Part `notifications/` (docs/architecture.md): the service's notifications to us: verified, kept
 * in the inbox before the answer, applied to the payment. May import payments/ (transitions),
 * stores/, model/, webhook/ (verification) and the foundation.
 *
 * Receiving a notification (the service sends each one once: no retry, no history, 30 s to answer).
 * The order of work is what makes a restart or a crash lose nothing:
 *
 * 1. verify the signature over the raw body;
 * 2. keep the raw body in the store's inbox (its `_nonce` is the key: a duplicate stops here);
 * 3. answer `200`;
 * 4. apply it (monotone transition + the merchant's deliveries, in one compare-and-set), then mark
 *    the inbox entry done.
 *
 * A crash after 2 leaves the entry pending: `resume()` (at start, then periodically, in every
 * process) applies it again. Applying twice is harmless: transitions only move forward and the
 * deliveries are written with the transition, so nothing is reported twice.
 */
import type { BackgroundWork } from '../background-work.js';
import type { Logger } from '../log.js';
import { DEFAULT_MAX_BYTES, readVerifiedWebhook } from '../../contract/webhook-signature/index.js';
import type { InboxEntry } from '../model/records.js';
import { applyNotification, verifyNotification, type NotificationDeps, type WebhookResult } from './apply-notification.js';

/**
 * The one body limit of a service notification: the verifier's own (64 KB). Each way in checks it
 * before reading the body (the node:http fast path, the Hono route, the server API's relay), so a
 * large body is refused unread; `accept` checks it again for callers that pass bytes directly.
 */
export const maxNotificationBytes = DEFAULT_MAX_BYTES;

export interface NotificationAnswer {
  status: 200 | 400 | 401 | 413 | 503;
  body: string;
}

/** The answer to a notification body over {@link maxNotificationBytes}, on every way in. */
export const tooLargeAnswer = { status: 413, body: '{"error":"body too large"}' } as const satisfies NotificationAnswer;

export interface NotificationInbox {
  /** The webhook route: verifies, keeps, answers; applies after the answer. */
  accept(raw: Uint8Array | string): Promise<NotificationAnswer>;
  /** For a relayed notification: the same, but resolves once it is applied. */
  handle(raw: Uint8Array | string): Promise<WebhookResult>;
  /** Applies every entry still pending (a crash, a store outage); returns how many. */
  resume(): Promise<number>;
}

const received: NotificationAnswer = { status: 200, body: '{"received":true}' };
const decoder = new TextDecoder();

export function createNotificationInbox(deps: NotificationDeps & { log: Logger; background: BackgroundWork }): NotificationInbox {
  // An id is remembered twice the timestamp tolerance: a replay older than that is refused as old.
  const seenTtlMs = deps.toleranceMs * 2;

  const apply = async (entry: InboxEntry, notification: Parameters<typeof applyNotification>[1]) => {
    const result = await applyNotification(deps, notification);
    await deps.store.markInboxDone(entry.id);
    return result;
  };

  const keep = async (raw: Uint8Array | string) => {
    const verified = await verifyNotification(deps, raw);
    if (!verified.ok) return { kind: 'refused' as const, result: verified.result };
    const notification = verified.notification;
    const entry: InboxEntry = { id: notification._nonce, rawBody: typeof raw === 'string' ? raw : decoder.decode(raw), receivedAt: deps.now() };
    let first: boolean;
    try {
      first = await deps.store.addToInbox(entry, seenTtlMs);
    } catch (error) {
      // Not kept: answering 200 would lose it for good. A non-2xx at least leaves the service's
      // record showing the miss (support can re-emit it).
      deps.log.error('service notification could not be stored: answered 503', { orderId: notification.orderId, status: notification.status, error });
      return { kind: 'unavailable' as const };
    }
    if (!first) {
      deps.log.info('service notification duplicate dropped', { orderId: notification.orderId });
      return { kind: 'duplicate' as const, orderId: notification.orderId };
    }
    return { kind: 'kept' as const, entry, notification };
  };

  const inBackground = (work: Promise<unknown>) => void deps.background.track(work);

  return {
    async accept(raw) {
      const size = typeof raw === 'string' ? raw.length : raw.byteLength;
      if (size > maxNotificationBytes) return tooLargeAnswer;
      const kept = await keep(raw);
      if (kept.kind === 'refused') return { status: kept.result.status as 400 | 401, body: JSON.stringify({ error: kept.result.outcome }) };
      if (kept.kind === 'unavailable') return { status: 503, body: '{"error":"storage unavailable"}' };
      if (kept.kind === 'kept') {
        inBackground(
          apply(kept.entry, kept.notification).catch((error: unknown) =>
            // Still pending in the inbox: the next resume applies it.
            deps.log.error('service notification could not be applied; it stays in the inbox and is retried', { orderId: kept.notification.orderId, error }),
          ),
        );
      }
      return received;
    },
    async handle(raw) {
      const kept = await keep(raw);
      if (kept.kind === 'refused') return kept.result;
      if (kept.kind === 'unavailable') throw new Error('The notification could not be stored; the store is unreachable. Relay it again once it is back.');
      if (kept.kind === 'duplicate') return { status: 200, outcome: 'duplicate', orderId: kept.orderId };
      return apply(kept.entry, kept.notification);
    },
    async resume() {
      let count = 0;
      for (;;) {
        const pending = await deps.store.pendingInbox(50);
        if (pending.length === 0) return count;
        for (const entry of pending) {
          let notification;
          try {
            // Verified when it arrived: read again, not re-verified (a secret rotated out since, or
            // the time spent here, must not lose a notification that was genuine when received).
            notification = readVerifiedWebhook(entry.rawBody);
          } catch (error) {
            deps.log.error('inbox entry cannot be read; dropped', { id: entry.id, error });
            await deps.store.markInboxDone(entry.id);
            continue;
          }
          await apply(entry, notification);
          count += 1;
        }
        if (pending.length < 50) return count;
      }
    },
  };
}
