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
import { redactedUrl } from '../model/urls.js';

/** The companion's options that say where transitions go (`CompanionOptions` has their documentation). */
export interface DeliverySinkOptions {
  onPaymentUpdate?: ((update: PaymentUpdate) => void | Promise<void>) | undefined;
  onRefundUpdate?: ((update: RefundUpdate) => void | Promise<void>) | undefined;
  merchantWebhookUrl?: string | undefined;
  merchantWebhookSecret?: string | undefined;
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
    // Shown in the console: without the query's values (a token some endpoints take there).
    merchantWebhookUrl: redactedUrl(url),
  };
}
