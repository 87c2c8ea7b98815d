/**
 * Part `model/` (docs/architecture.md): the records a store keeps (checkout, payment, deliveries,
 * inbox entry), the payment update the merchant receives, the page's view of a payment, the refusal
 * a payer is told, URL rules. May import the shared contract (src/contract) only.
 *
 * What the companion keeps per checkout. Plain JSON-serialisable data, so a persistent or shared
 * store (Redis) can hold it as it is.
 */
import type { PaymentState } from '../../contract/companion.js';
import {
  merchantNotificationKinds,
  queuedKinds,
  reportedByNotification,
  storedAs,
  type MerchantNotificationPayloads,
  type QueuedKind,
  type QueuedNotification,
  type Reported,
  type StoredPayloads,
} from './notification-kinds.js';
import type { RefundRecord } from './refund.js';
import type { AuthorizationUrlRefusal } from './urls.js';

export type { ReportedState } from './notification-kinds.js';

export interface OperatorRecord {
  code: string;
  name: string;
  logoUrl: string;
  instructions: string | null;
}

export interface PaymentRecord {
  state: PaymentState;
  /** 1 for the first attempt; a new attempt only after a verified final `failed`. */
  attempt: number;
  /**
   * The `orderId` sent to the service: the checkout's for attempt 1, a free `<orderId>-a<N>` after,
   * given to this order alone by the store (attempt-ids.ts).
   */
  serviceOrderId: string;
  /** E.164. Server-side only: the page sees it masked. */
  phoneNumber: string;
  useWallet: boolean;
  operator: OperatorRecord | null;
  workflow: string | null;
  /** https only (nextAction.authorizationUrl); null until the webhook brings it. */
  authorizationUrl: string | null;
  returned: boolean;
  /** The notification's amount differed from the checkout's: never reported as paid. */
  amountMismatch: boolean;
  /** The workflow the fee preview announced, if the page asked for one. */
  previewWorkflow?: string | null;
  /** The last status a verified notification carried, as written. */
  lastServiceStatus: string | null;
  /** The service's id of this attempt, from its pay-in answer: what support needs to re-emit a notification. */
  transactionId: string | null;
  /**
   * The request last posted under `serviceOrderId` whose outcome is not settled by an answer
   * (service-client/repost-rule.ts `postedRequestKey`): written before the post, cleared by a 422
   * (nothing created). While it is set and the outcome unknown, only this request may be posted
   * again, and a 409 to it is ours. Absent on records written before it existed.
   */
  postedRequest?: string | null;
  /**
   * The number the service's verified notifications reported for this attempt (their `phoneNumber`):
   * a refund is paid to this number, never to the one typed. Absent until a notification came.
   */
  reportedPhoneNumber?: string | null;
  /**
   * A verified notification named another number than the one this attempt was sent to: held for
   * support, never reported as paid, never refunded (the money came from a number we cannot vouch for).
   */
  phoneMismatch?: boolean;
  /**
   * A validly signed notification refused only because its timestamp was outside the tolerance
   * (this server's clock is off?): the service never sends it again, so the payment is listed as stuck.
   */
  refusedNotification?: { status: string; sentAt: number; receivedAt: number } | null;
  /**
   * The service's approval page (`nextAction.authorizationUrl`) for this attempt was refused, and
   * why: the payer can never approve it through us, so the page says this way of paying is
   * unavailable and offers another attempt, while the service's attempt is left to expire.
   */
  authorizationRefused?: { reason: AuthorizationUrlRefusal; at: number } | null;
  /**
   * An earlier attempt of this order, replaced while still open at the service (its approval page
   * was refused), was then notified completed: money moved on an attempt the order no longer
   * follows. Never dropped: the order is listed for support (a payer may have paid twice).
   */
  replacedAttemptCompleted?: { serviceOrderId: string; at: number } | null;
  /** When `onStale` was told about this payment (it is told once). */
  staleReportedAt?: number | null;
  updatedAt: number;
  /**
   * The service answered 409 to this attempt's order id without our having posted it before: the
   * transaction there is someone else's. Held as `unknown` for support; never re-posted, and no
   * notification for that id is applied to this order.
   */
  orderIdConflict?: boolean;
}

export interface CheckoutRecord {
  orderId: string;
  /** Canonical decimal string (contract/money.ts). Set by the merchant's server only. */
  amount: string;
  currencyCode: string;
  /** Learned from discovery; null until then. */
  decimalPlaces: number | null;
  /**
   * The checkout token, kept so that creating the same order again returns the same token; looked
   * up by its SHA-256 (`tokenHash`), so store keys never contain a token.
   */
  token: string;
  tokenHash: string;
  /** Unguessable id of the return route (`/return/<returnId>`). */
  returnId: string;
  returnUrl: string | null;
  maxAttempts: number;
  createdAt: number;
  /**
   * Random, minted when this record is created: an order id created again after its record expired
   * gets a new one, so the idempotency keys of its merchant notifications (`<orderId>.<lifeId>.<version>`)
   * never repeat one of the earlier life. Absent on records written before it existed.
   */
  lifeId?: string;
  expiresAt: number;
  /**
   * The payment link this checkout was created from (model/link.ts): its order id is then
   * `<linkId>-<t>-<n>` (`linkOrderId`), its pay-in waits for the link's claim, and the merchant's
   * notifications carry it.
   * Absent for a checkout the merchant created.
   */
  linkId?: string;
  /** Increases at every write; the store's compare-and-set compares it. */
  revision: number;
  /** Increases at every change the page should see; the status stream's event id. */
  version: number;
  /**
   * Epoch ms until which the store keeps this record (the store's TTL follows it on every write):
   * the token's expiry for a checkout that never started a payment, a week after the last change
   * once one did, so a late notification still finds its order.
   */
  retainUntil: number;
  payment: PaymentRecord | null;
  /**
   * Transitions not yet acknowledged by the merchant (callback or HTTP notification), oldest first.
   * Written in the same compare-and-set as the transition itself, so a transition and its delivery
   * are stored together or not at all: nothing is reported twice or lost by a crash in between.
   */
  deliveries: DeliveryRecord[];
  /** The last delivery attempts (newest last, bounded), for the server API and support. */
  deliveryLog: DeliveryAttempt[];
  /**
   * The last deliveries that left the queue (acknowledged, or given up), oldest first, bounded:
   * what a redelivery (deliveries/redeliver.ts) sends again, byte for byte under the same `webhook-id`.
   * Absent on records written before redelivery existed.
   */
  settledDeliveries?: SettledDelivery[];
  /** Refunds of the payment, oldest first (refunds/). Absent on records without one. */
  refunds?: RefundRecord[];
  /**
   * The payment's states and the service's notifications, with their times, oldest first, bounded
   * ({@link keptTimelineEntries}): what the console shows beside `deliveryLog` and `refunds`.
   * Absent on records written before it existed.
   */
  timeline?: TimelineEntry[];
}

/** One line of a payment's history: a state it reached, or a verified notification the service sent. */
export type TimelineEntry =
  | { kind: 'state'; at: number; state: PaymentState; attempt: number }
  | { kind: 'notification'; at: number; status: string; serviceOrderId: string };

/** A payment has a handful of states and notifications; a bound keeps a record small in every store. */
export const keptTimelineEntries = 30;

/** The record's timeline with `entry` added last (the oldest dropped past the bound). */
export function withTimelineEntry(record: CheckoutRecord, entry: TimelineEntry): TimelineEntry[] {
  return [...(record.timeline ?? []), entry].slice(-keptTimelineEntries);
}

/**
 * Every order id this record sent, or may send, to the service: its payment attempt's and each
 * refund's pay-out. The store's registry gives each to this order alone (store.ts).
 */
export function serviceOrderIdsOf(record: CheckoutRecord): string[] {
  const ids = record.payment ? [record.payment.serviceOrderId] : [];
  for (const refund of record.refunds ?? []) ids.push(refund.payoutOrderId);
  return ids;
}

/**
 * Where a merchant notification goes: the in-process `onPaymentUpdate` (`'callback'`), or the
 * merchant's HTTP endpoint (`endpointSink`). The endpoint's value is `'webhook'`, its 0.1.0 name:
 * delivery records at rest in every store and the server API's `sink` field carry it, so it stays
 * on the wire; in code it is the endpoint sink, since a "webhook" here is what the service sends us.
 */
export type DeliverySink = 'callback' | typeof endpointSink;

/** The merchant endpoint's sink, under the value stored and served since 0.1.0. */
export const endpointSink = 'webhook';

/**
 * A merchant notification waiting for (or sent to) one sink. Its payload is stored under the field
 * its kind names (model/notification-kinds.ts: `update` for a payment's, `refund` for a refund's).
 */
export interface DeliveryRecord extends StoredPayloads {
  /** The update's idempotency key (transitions.ts): the same on every retry (the Standard Webhooks `webhook-id`). */
  id: string;
  sink: DeliverySink;
  /**
   * Which kind of merchant notification this is (model/notification-kinds.ts). Absent on deliveries
   * stored by 0.4.0 and before, which still wait in stores after an upgrade: read every delivery
   * with {@link notificationOf}, never by this field alone.
   */
  kind?: QueuedKind;
  createdAt: number;
  attempts: number;
  /** Epoch ms of the next try. Deliveries of one order and sink go out in order: only the first is due. */
  nextAttemptAt: number;
  /**
   * Set when the merchant asked for this delivery again (redeliver): the give-up window counts from
   * here, not from the transition (`createdAt`, which the body's timestamp keeps).
   */
  requeuedAt?: number;
}

/** The part of a stored delivery that says what it carries. */
export type StoredNotification = StoredPayloads & Pick<DeliveryRecord, 'kind'>;

/**
 * The kind and payload of a stored delivery, the one place a delivery is read: its `kind` when it
 * has one; on a delivery stored by 0.4.0 (no `kind`), the kind whose field holds a payload, the
 * later kind first as 0.4.0 decided it (`refund` set: a refund's; else a payment's).
 */
export function notificationOf(delivery: StoredNotification): QueuedNotification {
  const known = delivery.kind !== undefined && Object.hasOwn(merchantNotificationKinds, delivery.kind) ? delivery.kind : undefined;
  const kind = known ?? [...queuedKinds].reverse().find((candidate) => delivery[storedAs(candidate)] !== undefined) ?? 'payment';
  return { kind, payload: delivery[storedAs(kind)] } as QueuedNotification;
}

/** The fields a delivery of `notification` is stored with: its kind and its payload under the kind's field. */
export function storedNotification(notification: QueuedNotification): StoredNotification {
  return { kind: notification.kind, [storedAs(notification.kind)]: notification.payload };
}

/**
 * One delivery per sink of a change of kind `kind`, due at once, written in the same compare-and-set
 * as the change (transitions.ts, refunds/refund-changes.ts).
 */
export function queuedDeliveries<K extends QueuedKind>(
  kind: K,
  payload: MerchantNotificationPayloads[K],
  sinks: readonly DeliverySink[],
  at: number,
): DeliveryRecord[] {
  const stored = storedNotification({ kind, payload } as QueuedNotification);
  return sinks.map((sink) => ({ id: payload.idempotencyKey, sink, ...stored, createdAt: at, attempts: 0, nextAttemptAt: at }));
}

/**
 * What a delivery reports, for the server API, redelivery and the worker's log: `reportedState`, never
 * `state`, which beside `attempts` read as the delivery's own state; `refundId` for a refund's.
 */
export function reportedBy(delivery: StoredNotification): Reported {
  return reportedByNotification(notificationOf(delivery));
}

/** A delivery that left the queue: acknowledged by the merchant (`delivered`), or given up. */
export interface SettledDelivery extends DeliveryRecord {
  delivered: boolean;
  settledAt: number;
}

export interface DeliveryAttempt {
  deliveryId: string;
  sink: DeliverySink;
  at: number;
  ok: boolean;
  /** HTTP status of the merchant's answer, when there was one. */
  status?: number;
  /** Why it failed (a timeout, a thrown error's message, a non-2xx), never a secret. */
  error?: string;
  /** How long the sink took to answer (or to fail), in ms. Absent on attempts recorded before it existed. */
  durationMs?: number;
}

/** Notification kept by the store before the webhook route answers (the inbox). */
export interface InboxEntry {
  /** The notification's `_nonce`: a second notification with it is a duplicate. */
  id: string;
  /** The body exactly as received (the signature is over these bytes). */
  rawBody: string;
  receivedAt: number;
}

/**
 * The deliveries that may go out next: the first pending one of each sink (later ones wait for it,
 * so each sink hears an order's transitions in order). The one rule of when a delivery is due:
 * the worker sends a head whose `nextAttemptAt` has passed, and stores index records by the
 * earliest head ({@link nextDeliveryAt}).
 */
export function deliveryHeads(record: CheckoutRecord): DeliveryRecord[] {
  const seen = new Set<DeliverySink>();
  const heads: DeliveryRecord[] = [];
  for (const delivery of record.deliveries ?? []) {
    if (seen.has(delivery.sink)) continue;
    seen.add(delivery.sink);
    heads.push(delivery);
  }
  return heads;
}

/**
 * When the store must next look at this record for deliveries: the earliest `nextAttemptAt` of
 * its {@link deliveryHeads}, or null when none is pending. Stores index records by it (`dueDeliveries`).
 */
export function nextDeliveryAt(record: CheckoutRecord): number | null {
  let earliest: number | null = null;
  for (const head of deliveryHeads(record)) if (earliest === null || head.nextAttemptAt < earliest) earliest = head.nextAttemptAt;
  return earliest;
}
