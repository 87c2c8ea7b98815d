/**
 * Where transitions are delivered: the merchant's `onPaymentUpdate` (library mode), its HTTP
 * endpoint with signed notifications (service mode), or both, from the one queue.
 */
import type { PaymentUpdate } from '../model/payment-update.js';
import type { RefundUpdate } from '../model/refund.js';
import type { DeliverySink } from '../model/records.js';
import type { DeliverFunction } from './delivery-worker.js';
import { createMerchantNotificationSink } from './merchant-notifications.js';

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
