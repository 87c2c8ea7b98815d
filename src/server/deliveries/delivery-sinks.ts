/**
 * Where transitions are delivered: the merchant's `onPaymentUpdate` (library mode), its HTTP
 * endpoint with signed notifications (service mode), or both, from the one queue.
 */
import type { PaymentUpdate } from '../model/payment-update.js';
import type { RefundUpdate } from '../model/refund.js';
import type { DeliverySink } from '../model/records.js';
import type { DeliverFunction } from './delivery-worker.js';
import { createMerchantNotificationSink, createMerchantPing } from './merchant-notifications.js';
import type { CheckoutStore } from '../stores/store.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { createRedelivery } from './redeliver.js';
import { checkMerchantEvents, defaultMerchantEvents } from './merchant-events.js';
import { paymentUpdatedEvent, refundUpdatedEvent } from './merchant-notifications.js';

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
      ? { webhook: createMerchantNotificationSink({ url: options.merchantWebhookUrl ?? '', secret: options.merchantWebhookSecret ?? '', now, timeoutMs: options.deliveryTimeoutMs ?? 10_000 }) }
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
  const events = options.merchantEvents === undefined ? defaultMerchantEvents : checkMerchantEvents(options.merchantEvents);
  const wants = (sink: DeliverySink, event: string) => sink !== 'webhook' || (events as readonly string[]).includes(event);
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
    redeliver: createRedelivery({ ...deps, sink: 'webhook' }),
    pingMerchant: createMerchantPing({ url, secret, now: deps.now, timeoutMs: options.deliveryTimeoutMs ?? 10_000 }),
    merchantWebhookUrl: url,
  };
}
