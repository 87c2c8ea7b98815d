/**
 * The first step of a service notification (§6.3): is it the service's? The signature is checked
 * over the raw body in its received key order, its age against the tolerance; anything else is
 * refused before it reaches the inbox.
 */
import type { WebhookNotification } from '../../contract/upstream/index.js';
import { verifyWebhook, WebhookVerificationError } from '../../contract/webhook-signature/index.js';
import { updateCheckoutRecord } from '../stores/store.js';
import { refundOfPayout } from '../refunds/apply-payout-notification.js';
import type { NotificationDeps, NotificationRefused } from './notification-types.js';

/** Verifies over the raw body in its received key order; throws nothing it can name. */
export async function verifyNotification(deps: NotificationDeps, rawBody: string | Uint8Array): Promise<{ kind: 'verified'; notification: WebhookNotification } | NotificationRefused> {
  try {
    const notification = await verifyWebhook(rawBody, { secrets: deps.secrets, toleranceMs: deps.toleranceMs, now: deps.now });
    return { kind: 'verified', notification };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    if (error.reason === 'TIMESTAMP_TOO_OLD' || error.reason === 'TIMESTAMP_IN_FUTURE') {
      await keepRefusedButGenuine(deps, rawBody, error);
    } else {
      deps.log.warn('service notification refused', { reason: error.reason, message: error.message });
    }
    return { kind: 'refused', reason: error.reason, message: error.message };
  }
}

/**
 * A validly signed notification refused only for its age is most likely genuine and the one the
 * service will never send again: name its order in the log and keep it on the payment, so the
 * stuck-payments list tells the merchant (and this server's clock can be fixed).
 */
async function keepRefusedButGenuine(deps: NotificationDeps, rawBody: string | Uint8Array, error: WebhookVerificationError): Promise<void> {
  let notification: WebhookNotification;
  try {
    notification = await verifyWebhook(rawBody, { secrets: deps.secrets, toleranceMs: Number.POSITIVE_INFINITY, now: deps.now });
  } catch {
    deps.log.warn('service notification refused', { reason: error.reason, message: error.message });
    return;
  }
  deps.log.error('validly signed service notification refused for its timestamp: check this server clock (NTP); the payment is listed as stuck', {
    orderId: notification.orderId,
    status: notification.status,
    reason: error.reason,
    skewSeconds: Math.round((deps.now() - notification._timestamp) / 1000),
  });
  const checkout = await deps.store.getByServiceOrderId(notification.orderId);
  if (!checkout) return;
  const refused = { status: notification.status, sentAt: notification._timestamp, receivedAt: deps.now() };
  await updateCheckoutRecord(deps.store, checkout.orderId, (current) => {
    // A refund's pay-out, or the payment's attempt: whichever holds this service order id.
    if (refundOfPayout(current, notification.orderId)) {
      return { ...current, refunds: current.refunds!.map((refund) => (refund.payoutOrderId === notification.orderId ? { ...refund, refusedNotification: refused } : refund)) };
    }
    const payment = current.payment;
    if (!payment || payment.serviceOrderId !== notification.orderId) return null;
    return { ...current, payment: { ...payment, refusedNotification: refused } };
  });
}
