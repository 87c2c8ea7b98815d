/**
 * Part `notifications/` (docs/architecture.md): the service's notifications to us. May import
 * refunds/, payments/, stores/, model/ and the foundation; returns outcomes in the domain's words
 * (`notification-types.ts`), never an HTTP answer.
 *
 * The inbox: the store's record of the notifications received and not yet applied. The service
 * sends each one once (no retry, no history), so a notification enters the inbox before the
 * service is answered and leaves it once applied; one that is still inside after a crash or a
 * store outage is applied again (`receive-notification.ts` `resume`).
 */
import type { WebhookNotification } from '../../contract/upstream/index.js';
import type { Logger } from '../log.js';
import type { InboxEntry } from '../model/records.js';
import type { CheckoutStore } from '../stores/store.js';
import type { NotificationDuplicate, NotificationNotKept } from './notification-types.js';

export interface Inbox {
  /** Keeps a verified notification under its `_nonce`; a duplicate or an unreachable store is said. */
  enter(raw: Uint8Array | string, notification: WebhookNotification): Promise<{ kind: 'entered'; entry: InboxEntry } | NotificationDuplicate | NotificationNotKept>;
  /** The notification is applied: it leaves the inbox (its id is still remembered, for duplicates). */
  leave(entry: InboxEntry): Promise<void>;
  /** Entries still inside, oldest first, a page at a time. */
  inside(limit: number): Promise<InboxEntry[]>;
}

const decoder = new TextDecoder();

/** A notification's inbox entry: under its `_nonce`, the raw body as received (applied again from it). */
export function inboxEntryOf(raw: Uint8Array | string, notification: WebhookNotification, receivedAt: number): InboxEntry {
  return { id: notification._nonce, rawBody: typeof raw === 'string' ? raw : decoder.decode(raw), receivedAt };
}

export function createInbox(deps: { store: CheckoutStore; log: Logger; now: () => number; toleranceMs: number }): Inbox {
  // An id is remembered twice the timestamp tolerance: a replay older than that is refused as old.
  const seenTtlMs = deps.toleranceMs * 2;
  return {
    async enter(raw, notification) {
      const entry = inboxEntryOf(raw, notification, deps.now());
      let first: boolean;
      try {
        first = await deps.store.addToInbox(entry, seenTtlMs);
      } catch (error) {
        // Not kept: saying "received" would lose it for good. A refusal at least leaves the
        // service's record showing the miss (support can re-emit it).
        deps.log.error('service notification could not be stored: not acknowledged (answered 503)', { orderId: notification.orderId, status: notification.status, error });
        return { kind: 'unavailable' };
      }
      if (!first) {
        deps.log.info('service notification duplicate dropped', { orderId: notification.orderId });
        return { kind: 'duplicate', orderId: notification.orderId };
      }
      return { kind: 'entered', entry };
    },
    leave: (entry) => deps.store.markInboxDone(entry.id),
    inside: (limit) => deps.store.pendingInbox(limit),
  };
}
