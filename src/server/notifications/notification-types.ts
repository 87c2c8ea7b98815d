/**
 * What the steps of receiving a service notification need, and what each can come to, in the
 * domain's words. No HTTP here: the answers each way in gives (the webhook route, the server API's
 * relay, `handleWebhook`) are one mapping, `http-answers/notification-answers.ts`.
 */
import type { PaymentState } from '../../contract/companion.js';
import type { WebhookRefusalReason } from '../../contract/webhook-signature/errors.js';
import type { Logger } from '../log.js';
import type { CheckoutStore } from '../stores/store.js';
import type { Transitions } from '../payments/transitions.js';
import type { RefundChangeDeps } from '../refunds/refund-changes.js';
import type { SinksByKind } from '../model/notification-kinds.js';
import type { DeliverySink } from '../model/records.js';

import type { AuthorizationUrlRefusal } from '../model/urls.js';

export interface NotificationDeps {
  store: CheckoutStore;
  transitions: Transitions;
  log: Logger;
  secrets: readonly string[];
  toleranceMs: number;
  now: () => number;
  /** Why an authorisation URL may not be sent to a payer's browser, or null when it may. */
  authorizationUrlRefusal: (url: string) => AuthorizationUrlRefusal | null;
  /** Where each kind of change is queued (default: nowhere); a payment's go through `transitions`. */
  sinks?: Partial<SinksByKind<DeliverySink>>;
  onRefundQueued?: RefundChangeDeps['onQueued'];
}

/** Not verified: a forged, damaged, replayed or too old body, or no secret to check it with. */
export interface NotificationRefused {
  kind: 'refused';
  reason: WebhookRefusalReason;
  message: string;
}

/** Not even read: larger than the one body limit (`maxNotificationBytes`). */
export interface NotificationTooLarge {
  kind: 'too-large';
}

/** Genuine but not kept: the store could not be written, so the service must not hear "received". */
export interface NotificationNotKept {
  kind: 'unavailable';
}

/** Genuine, and kept before: its `_nonce` is in the inbox already. */
export interface NotificationDuplicate {
  kind: 'duplicate';
  orderId: string;
}

/** What applying a verified notification did: moved a payment or a refund forward, or nothing. */
export interface NotificationApplied {
  kind: 'applied' | 'ignored';
  orderId: string;
  state?: PaymentState;
}

/** The webhook route's outcome: the notification is answered before it is applied. */
export type ReceiveOutcome = { kind: 'kept' } | NotificationDuplicate | NotificationRefused | NotificationNotKept | NotificationTooLarge;

/** A relayed notification's outcome: it is applied before the relay is answered. */
export type RelayOutcome = NotificationApplied | NotificationDuplicate | NotificationRefused | NotificationNotKept;
