/**
 * Where transitions are delivered: the merchant's `onPaymentUpdate` (library mode), its HTTP
 * endpoint with signed notifications (standalone mode), or both, from the one queue.
 */
import { callbackOf, merchantNotificationKinds, queuedKinds, type NotificationCallbacks, type QueuedKind, type SinksByKind as SinksOfKind } from '../model/notification-kinds.js';
import { endpointSink, notificationOf, type DeliveryRecord, type DeliverySink } from '../model/records.js';
import type { DeliverFunction } from './delivery-worker.js';
import type { CheckoutStore } from '../stores/store.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { createRedelivery } from './redeliver.js';
import { redactedUrl } from '../model/urls.js';
import { subscribedEvents } from './merchant-events.js';
import { createMerchantNotificationSink, createMerchantPing, merchantEventOf, testPingEvent, type PingResult } from './merchant-notifications.js';
import { companionDefaults } from '../model/option-defaults.js';

/**
 * The companion's options that say where transitions go (`CompanionOptions` has their
 * documentation): a callback per queued kind (`onPaymentUpdate`, `onRefundUpdate`), the endpoint.
 */
export interface DeliverySinkOptions extends NotificationCallbacks {
  merchantWebhookUrl?: string | undefined;
  merchantWebhookSecret?: string | undefined;
  merchantEvents?: readonly string[] | undefined;
  deliveryTimeoutMs?: number | undefined;
}

export function createDeliverySinks(options: DeliverySinkOptions, now: () => number): Partial<Record<DeliverySink, DeliverFunction>> {
  const callbacks = queuedKinds.filter((kind) => options[callbackOf(kind)] !== undefined);
  const toEndpoint = options.merchantWebhookUrl !== undefined || options.merchantWebhookSecret !== undefined;
  return {
    ...(callbacks.length > 0
      ? {
          // A shop that gave some of the callbacks only has nothing to hear of the other kinds.
          callback: async (delivery) => {
            const { kind, payload } = notificationOf(delivery);
            const callback = options[callbackOf(kind)] as ((payload: unknown) => void | Promise<void>) | undefined;
            // A copy: the merchant's code may change what it is given, and the memory store keeps
            // the queued payload frozen (stores/memory/frozen-data.ts), where the others parse a new one.
            if (payload !== undefined) await callback?.(copyJsonData(payload));
            return { ok: true };
          },
        }
      : {}),
    ...(toEndpoint
      ? { [endpointSink]: createMerchantNotificationSink({ url: options.merchantWebhookUrl ?? '', secret: options.merchantWebhookSecret ?? '', now, timeoutMs: options.deliveryTimeoutMs ?? companionDefaults.deliveryTimeoutMs }) }
      : {}),
  };
}

/**
 * A deep copy of plain JSON data (what a queued payload is: every store keeps it as JSON). By hand
 * rather than `structuredClone`, which handles every cloneable type through a serializer and cost
 * 2.6 µs for a payment update where this walk costs 0.35 µs (issue 43: 5 % of a notification's CPU
 * on the memory store, in process).
 */
function copyJsonData(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJsonData);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJsonData((value as Record<string, unknown>)[key]);
    // A key named __proto__ (JSON.parse makes it an own key) stays a key, as it would in a clone.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

/** Which sinks each kind of change is queued for (model/notification-kinds.ts). */
export type SinksByKind = SinksOfKind<DeliverySink>;

/**
 * Whether `sink` takes notifications of type `event`: the endpoint (`webhook`) hears only of the
 * types it subscribed to (merchant-events.ts); the callbacks (library mode) are chosen by which of
 * them the shop passed.
 */
function subscription(options: DeliverySinkOptions): (sink: DeliverySink, event: string) => boolean {
  const events = subscribedEvents(options.merchantEvents) as readonly string[];
  return (sink, event) => sink !== endpointSink || events.includes(event);
}

/**
 * A change of a type the endpoint did not subscribe to is never queued for it, so it never shows
 * as a delivery that failed or waits.
 */
export function sinksByKind(sinks: Partial<Record<DeliverySink, DeliverFunction>>, options: DeliverySinkOptions): SinksByKind {
  const wants = subscription(options);
  const names = Object.keys(sinks) as DeliverySink[];
  const sinksOf = (kind: QueuedKind) => names.filter((sink) => wants(sink, merchantNotificationKinds[kind].event));
  return Object.fromEntries(queuedKinds.map((kind) => [kind, sinksOf(kind)])) as Record<QueuedKind, DeliverySink[]>;
}

/**
 * Whether a queued delivery is still wanted by its sink under the subscription the companion runs
 * with now (issue 40, finding 8): a delivery queued before `MOMO_MERCHANT_EVENTS` was narrowed is
 * checked again when it is sent, and when a redelivery is asked for, so a type taken off the list
 * stops reaching the endpoint at once, not after its retries run out (72 h).
 */
export function stillSubscribed(options: DeliverySinkOptions): (delivery: DeliveryRecord) => boolean {
  const wants = subscription(options);
  return (delivery) => wants(delivery.sink, merchantEventOf(delivery));
}

/**
 * What the merchant may ask of its endpoint's deliveries (the server API's redeliver and test
 * routes): nothing without an endpoint configured.
 */
export function merchantEndpointActions(options: DeliverySinkOptions, deps: { store: CheckoutStore; worker: Pick<DeliveryWorker, 'deliverNow'>; now: () => number }) {
  const url = options.merchantWebhookUrl;
  const secret = options.merchantWebhookSecret;
  if (url === undefined || secret === undefined) return {};
  return {
    redeliver: createRedelivery({ ...deps, sink: endpointSink, subscribed: stillSubscribed(options) }),
    pingMerchant: subscribedEvents(options.merchantEvents).includes(testPingEvent)
      ? createMerchantPing({ url, secret, now: deps.now, timeoutMs: options.deliveryTimeoutMs ?? companionDefaults.deliveryTimeoutMs })
      : notSubscribedToPing,
    // Shown in the console: without the query's values (a token some endpoints take there).
    merchantWebhookUrl: redactedUrl(url),
  };
}

/** What asking for a test notification answers when the endpoint did not list `test.ping`: nothing is sent. */
async function notSubscribedToPing(): Promise<PingResult> {
  return {
    ok: false,
    webhookId: '',
    durationMs: 0,
    error:
      'not sent: your endpoint does not take test.ping (MOMO_MERCHANT_EVENTS). A handler written for payment.updated alone would fail on it. ' +
      'Once your handler answers 2xx to types it does not handle (docs/backends.md), add test.ping to MOMO_MERCHANT_EVENTS and restart the companion.',
  };
}
