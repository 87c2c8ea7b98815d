/**
 * Where transitions are delivered: the merchant's `onPaymentUpdate` (library mode), its HTTP
 * endpoint with signed notifications (standalone mode), or both, from the one queue.
 */
import type { PaymentUpdate } from '../model/payment-update.js';
import type { RefundUpdate } from '../model/refund.js';
import { endpointSink, type DeliverySink } from '../model/records.js';
import type { DeliverFunction } from './delivery-worker.js';
import type { CheckoutStore } from '../stores/store.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { createRedelivery } from './redeliver.js';
import { redactedUrl } from '../model/urls.js';
import { subscribedEvents } from './merchant-events.js';
import { createMerchantNotificationSink, createMerchantPing, paymentUpdatedEvent, refundUpdatedEvent, testPingEvent, type PingResult } from './merchant-notifications.js';

/** The companion's options that say where transitions go (`CompanionOptions` has their documentation). */
export interface DeliverySinkOptions {
  onPaymentUpdate?: ((update: PaymentUpdate) => void | Promise<void>) | undefined;
  onRefundUpdate?: ((update: RefundUpdate) => void | Promise<void>) | undefined;
  merchantWebhookUrl?: string | undefined;
  merchantWebhookSecret?: string | undefined;
  merchantEvents?: readonly string[] | undefined;
  deliveryTimeoutMs?: number | undefined;
}

export function createDeliverySinks(options: DeliverySinkOptions, now: () => number): Partial<Record<DeliverySink, DeliverFunction>> {
  const { onPaymentUpdate, onRefundUpdate } = options;
  const toEndpoint = options.merchantWebhookUrl !== undefined || options.merchantWebhookSecret !== undefined;
  return {
    ...(onPaymentUpdate || onRefundUpdate
      ? {
          // A shop that gave one of the two callbacks only has nothing to hear of the other kind.
          callback: async (delivery) => {
            if (delivery.refund) await onRefundUpdate?.(delivery.refund);
            else if (delivery.update) await onPaymentUpdate?.(delivery.update);
            return { ok: true };
          },
        }
      : {}),
    ...(toEndpoint
      ? { [endpointSink]: createMerchantNotificationSink({ url: options.merchantWebhookUrl ?? '', secret: options.merchantWebhookSecret ?? '', now, timeoutMs: options.deliveryTimeoutMs ?? 10_000 }) }
      : {}),
  };
}

/** Which sinks each kind of change is queued for. */
export interface SinksByEvent {
  payment: DeliverySink[];
  refund: DeliverySink[];
}

/**
 * The endpoint (`webhook`) hears only of the types it subscribed to (merchant-events.ts): a change
 * of another type is never queued for it, so it never shows as a delivery that failed or waits.
 * The callbacks (library mode) are chosen by which of them the shop passed.
 */
export function sinksByEvent(sinks: Partial<Record<DeliverySink, DeliverFunction>>, options: DeliverySinkOptions): SinksByEvent {
  const events = subscribedEvents(options.merchantEvents);
  const wants = (sink: DeliverySink, event: string) => sink !== endpointSink || (events as readonly string[]).includes(event);
  const names = Object.keys(sinks) as DeliverySink[];
  return {
    payment: names.filter((sink) => wants(sink, paymentUpdatedEvent)),
    refund: names.filter((sink) => wants(sink, refundUpdatedEvent)),
  };
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
    redeliver: createRedelivery({ ...deps, sink: endpointSink }),
    pingMerchant: subscribedEvents(options.merchantEvents).includes(testPingEvent)
      ? createMerchantPing({ url, secret, now: deps.now, timeoutMs: options.deliveryTimeoutMs ?? 10_000 })
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
