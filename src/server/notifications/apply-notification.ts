/**
 * The last step of a service notification (§6), once verified and kept in the inbox: matched by
 * `orderId` through the store's registry (the body has no currency), applied monotonically
 * whatever the arrival order. A notification is a trigger, not an authority (§6.2): a differing amount or number is
 * flagged, held for support and never reported as paid; the number it reports is the one a refund pays.
 */
import { sameAmount } from '../../contract/money.js';
import { redactPhone } from '../../contract/phone.js';
import type { WebhookNotification } from '../../contract/upstream/index.js';
import { isFinal, movesForward } from '../payments/transitions.js';
import { applyPayoutNotification, refundOfPayout } from '../refunds/apply-payout-notification.js';
import { authorizationUrlRefusalText } from '../model/urls.js';
import type { NotificationApplied, NotificationDeps } from './notification-types.js';

/** Applies a verified notification: idempotent (applying it again changes nothing). */
export async function applyNotification(deps: NotificationDeps, notification: WebhookNotification): Promise<NotificationApplied> {
  const checkout = await deps.store.getByServiceOrderId(notification.orderId);
  if (checkout && refundOfPayout(checkout, notification.orderId)) {
    // A refund's pay-out (refunds/), found through the same registry.
    const refundDeps = { store: deps.store, now: deps.now, log: deps.log, sinks: deps.sinks?.refund ?? [], onQueued: deps.onRefundQueued };
    const { changed } = await applyPayoutNotification(refundDeps, checkout, notification);
    return { kind: changed ? 'applied' : 'ignored', orderId: checkout.orderId };
  }
  if (checkout?.payment && checkout.payment.serviceOrderId !== notification.orderId && notification.status === 'completed') {
    return holdReplacedAttemptCompleted(deps, checkout.orderId, notification.orderId);
  }
  if (!checkout || checkout.payment?.serviceOrderId !== notification.orderId) {
    // An order this companion does not hold, or an earlier attempt already failed and replaced.
    deps.log.warn('service notification for no current payment ignored', { orderId: notification.orderId, status: notification.status });
    return { kind: 'ignored', orderId: notification.orderId };
  }
  if (checkout.payment.orderIdConflict) {
    // The service's transaction under this id is not ours (pay-flow.ts): never applied to this order.
    deps.log.error('service notification for an order id another client created: not applied; needs support', { orderId: checkout.orderId, status: notification.status });
    return { kind: 'ignored', orderId: notification.orderId };
  }

  const amountMatches = sameAmount(notification.rawAmount, checkout.amount);
  if (!amountMatches) {
    deps.log.error('service notification amount differs from the order: not reported as paid', {
      orderId: checkout.orderId,
      expected: checkout.amount,
      received: notification.rawAmount,
      status: notification.status,
    });
  }
  // §2.2: the number is the payer's identity on the service's side; one that differs from the number
  // this attempt was sent to means the record cannot vouch for who paid: held for support.
  const phoneMatches = sameNumber(notification.phoneNumber, checkout.payment.phoneNumber);
  if (!phoneMatches) {
    deps.log.error('service notification names another number than the payment was sent to: held for support, never reported as paid or refunded', {
      orderId: checkout.orderId,
      expected: redactPhone(checkout.payment.phoneNumber),
      received: redactPhone(notification.phoneNumber),
      status: notification.status,
    });
  }
  const authorizationUrl = notification.nextAction?.authorizationUrl;
  const refusal = authorizationUrl === undefined ? null : deps.authorizationUrlRefusal(authorizationUrl);
  if (refusal) {
    // Said at once to the payer (payment-view.ts `approvalUnavailable`) and in the stuck list: a page
    // the payer never gets is a payment that cannot be approved, not one to wait three minutes for.
    deps.log.error(`service notification authorizationUrl refused: ${authorizationUrlRefusalText[refusal]}; only https URLs to a public host are sent to a payer. The payer is told to pay another way`, {
      orderId: checkout.orderId,
      reason: refusal,
      hint: 'a standalone sandbox behind a proxy needs SANDBOX_PUBLIC_URL (docs/deploy.md section 7)',
    });
  }

  const { changed, checkout: after } = await deps.transitions.update(checkout.orderId, (payment) => {
    if (!payment || payment.serviceOrderId !== notification.orderId) return null;
    if (isFinal(payment.state)) return null;
    const next = { ...payment, lastServiceStatus: notification.status, reportedPhoneNumber: `+${digitsOf(notification.phoneNumber)}` };
    if (!amountMatches || !phoneMatches) {
      // One truth for the payer and the merchant: a payment whose amount or number differs is never
      // paid. It fails at once, final and without a retry (payment-view.ts), so no later notification
      // changes it, and it is listed for support (payments-list.ts).
      return { ...next, amountMismatch: payment.amountMismatch || !amountMatches, phoneMismatch: payment.phoneMismatch || !phoneMatches, state: 'failed' as const };
    }
    if (notification.status === 'completed') return { ...next, state: 'completed' as const };
    if (notification.status === 'failed') return { ...next, state: 'failed' as const };
    if (authorizationUrl !== undefined && !refusal && movesForward(payment.state, 'redirect-ready')) {
      return { ...next, state: 'redirect-ready' as const, authorizationUrl };
    }
    if (refusal && !payment.authorizationRefused) {
      // Not failed: the service's attempt stays open (left to expire there) and a late outcome still applies.
      const state = movesForward(payment.state, 'awaiting-redirect') ? ('awaiting-redirect' as const) : payment.state;
      return { ...next, state, authorizationRefused: { reason: refusal, at: deps.now() } };
    }
    if (notification.status !== 'pending') {
      // assumptions.md: an unknown status is non-final; keep it monotone and log it.
      deps.log.warn('service notification with an unknown status treated as non-final', { orderId: checkout.orderId, status: notification.status });
    }
    if (movesForward(payment.state, 'pending')) return { ...next, state: 'pending' as const };
    return null;
  }, { received: { status: notification.status, serviceOrderId: notification.orderId }, justRead: checkout });
  const state = after?.payment?.state;
  return { kind: changed ? 'applied' : 'ignored', orderId: checkout.orderId, ...(state ? { state } : {}) };
}


const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/** Read leniently: E.164 is promised (§2.2), but a `+` or a space more or less names the same number. */
function sameNumber(reported: string, sent: string): boolean {
  return digitsOf(reported) === digitsOf(sent);
}

/**
 * A completed notification for an attempt this order no longer follows. An attempt is replaced once
 * it failed (a final state, which never becomes completed) or while still open when its approval
 * page was refused (payment-view.ts `approvalUnavailableFor`): then the service may still complete
 * it. Money moved, so it is never ignored: the order is listed for support with what to do.
 */
async function holdReplacedAttemptCompleted(deps: NotificationDeps, orderId: string, serviceOrderId: string): Promise<NotificationApplied> {
  deps.log.error('service notification: an earlier, replaced attempt of this order completed; the payer may have paid twice; listed for support', { orderId, serviceOrderId });
  const { changed } = await deps.transitions.update(orderId, (payment) => {
    if (!payment || payment.serviceOrderId === serviceOrderId || payment.replacedAttemptCompleted?.serviceOrderId === serviceOrderId) return null;
    return { ...payment, replacedAttemptCompleted: { serviceOrderId, at: deps.now() }, updatedAt: deps.now() };
  }, { received: { status: 'completed', serviceOrderId } });
  return { kind: changed ? 'applied' : 'ignored', orderId };
}
