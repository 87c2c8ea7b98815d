/**
 * The kinds of merchant notification, in one table: what each is called on the wire, whether an
 * endpoint hears it without asking, and, for a kind that is queued (delivered at least once, in
 * order, from the store), the field its payload is stored under on a delivery, the callback option
 * that receives it in library mode and what it reports to the server API. `test` (`test.ping`) is
 * never queued: it is sent once, when someone asks (deliveries/merchant-notifications.ts).
 *
 * Adding a kind (payment links will) is one entry here plus its payload's type in
 * {@link MerchantNotificationPayloads}: the stored delivery, the sinks it is queued for, the body,
 * the callback sink and the subscription list follow from them.
 */
import type { PaymentState } from '../../contract/companion.js';
import type { PaymentUpdate } from './payment-update.js';
import type { RefundState, RefundUpdate } from './refund.js';

/** What each kind carries: the `data` of the endpoint's body, the argument of its callback. */
export interface MerchantNotificationPayloads {
  payment: PaymentUpdate;
  refund: RefundUpdate;
  test: { webhookId: string };
}

export type MerchantNotificationKind = keyof MerchantNotificationPayloads;

/** The state a delivery carries: its payment transition's, or its refund's. */
export type ReportedState = PaymentState | RefundState;

/** What a delivery reports, for the server API, redelivery and the worker's log. */
export interface Reported {
  reportedState: ReportedState;
  refundId?: string;
}

interface KindEntry<Payload> {
  /** The body's `type`, and the name an endpoint subscribes to (`MOMO_MERCHANT_EVENTS`). */
  event: string;
  /** Sent to an endpoint that did not list its types: only the types release 0.1.0 documented. */
  byDefault: boolean;
  /** Absent: never queued (sent once when asked). */
  queued?: {
    /** The delivery's field holding the payload: `update` and `refund` are at rest since 0.1.0 and 0.4.0. */
    storedAs: string;
    /** The companion option that receives it in library mode. */
    callback: string;
    reports: (payload: Payload) => Reported;
  };
}

export const merchantNotificationKinds = {
  payment: {
    event: 'payment.updated',
    byDefault: true,
    queued: { storedAs: 'update', callback: 'onPaymentUpdate', reports: (update) => ({ reportedState: update.payment.state }) },
  },
  refund: {
    event: 'refund.updated',
    byDefault: false,
    queued: { storedAs: 'refund', callback: 'onRefundUpdate', reports: (update) => ({ reportedState: update.refund.state, refundId: update.refund.refundId }) },
  },
  test: { event: 'test.ping', byDefault: false },
} as const satisfies { [K in MerchantNotificationKind]: KindEntry<MerchantNotificationPayloads[K]> };

type Kinds = typeof merchantNotificationKinds;

/** The kinds a delivery is queued for (every one but `test`). */
export type QueuedKind = { [K in MerchantNotificationKind]: Kinds[K] extends { queued: object } ? K : never }[MerchantNotificationKind];

type QueuedEntry<K extends QueuedKind> = Kinds[K] extends { queued: infer Q extends { storedAs: string; callback: string } } ? Q : never;

/** A merchant notification type, as written in a body's `type` and in `MOMO_MERCHANT_EVENTS`. */
export type MerchantEventType = Kinds[MerchantNotificationKind]['event'];

/** The fields a stored delivery may hold its payload in: `{ update?: PaymentUpdate; refund?: RefundUpdate }`. */
export type StoredPayloads = { [K in QueuedKind as QueuedEntry<K>['storedAs']]?: MerchantNotificationPayloads[K] };

/** The callback options, one per queued kind: `{ onPaymentUpdate?, onRefundUpdate? }`. */
export type NotificationCallbacks = {
  [K in QueuedKind as QueuedEntry<K>['callback']]?: ((payload: MerchantNotificationPayloads[K]) => void | Promise<void>) | undefined;
};

/** A queued notification told by its kind: what a stored delivery is read as ({@link notificationOf} in records.ts). */
export type QueuedNotification = { [K in QueuedKind]: { kind: K; payload: MerchantNotificationPayloads[K] } }[QueuedKind];

/** The sinks each queued kind goes to (deliveries/delivery-sinks.ts `sinksByKind`). */
export type SinksByKind<Sink> = Record<QueuedKind, readonly Sink[]>;

const kindNames = Object.keys(merchantNotificationKinds) as MerchantNotificationKind[];

/** Every kind that is queued, in the table's order. */
export const queuedKinds: readonly QueuedKind[] = kindNames.filter((kind): kind is QueuedKind => 'queued' in merchantNotificationKinds[kind]);

/** Every notification type, in the table's order (payment.updated, refund.updated, test.ping, ...). */
export const merchantEventTypes = kindNames.map((kind) => merchantNotificationKinds[kind].event);

/** The field of a stored delivery that holds a queued kind's payload. */
export function storedAs(kind: QueuedKind): keyof StoredPayloads {
  return merchantNotificationKinds[kind].queued.storedAs;
}

/** The companion option that receives a queued kind in library mode. */
export function callbackOf(kind: QueuedKind): keyof NotificationCallbacks {
  return merchantNotificationKinds[kind].queued.callback;
}

/** What a queued notification reports (the state it carries; a refund's id). */
export function reportedByNotification(notification: QueuedNotification): Reported {
  const reports = merchantNotificationKinds[notification.kind].queued.reports as (payload: QueuedNotification['payload']) => Reported;
  return reports(notification.payload);
}
