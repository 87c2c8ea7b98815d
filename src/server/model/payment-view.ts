/** What the page may see of a payment: masked number, no secrets, no upstream text. */
import type { CheckoutView, CountryView, PaymentView } from '../../contract/companion.js';
import { redactPhone } from '../../contract/phone.js';
import type { CheckoutRecord, PaymentRecord } from './records.js';

export function paymentView(checkout: CheckoutRecord): PaymentView | null {
  const payment = checkout.payment;
  if (!payment) return null;
  // A payment whose notified amount or number differed is never shown as paid, to the payer or in
  // onPaymentUpdate (the webhook handler also stores it as failed; this holds for older records).
  const held = heldForSupport(payment);
  const state = held ? 'failed' : payment.state;
  const approvalUnavailable = approvalUnavailableFor(payment);
  const attemptsLeft = !held && payment.attempt < checkout.maxAttempts;
  return {
    state,
    version: checkout.version,
    orderId: checkout.orderId,
    phoneNumberMasked: redactPhone(payment.phoneNumber),
    operator: payment.operator && { code: payment.operator.code, name: payment.operator.name, logoUrl: payment.operator.logoUrl },
    workflow: payment.workflow,
    instructions: state === 'needs-otp' ? payment.operator?.instructions ?? null : null,
    authorizationUrl: state === 'redirect-ready' ? payment.authorizationUrl : null,
    returned: payment.returned,
    canRetry: (state === 'failed' || approvalUnavailable) && attemptsLeft,
    ...(approvalUnavailable ? { approvalUnavailable: true as const } : {}),
    updatedAt: new Date(payment.updatedAt).toISOString(),
  };
}

/**
 * The service's approval page for this open attempt was refused (apply-notification.ts): the payer
 * cannot approve it through us, so another attempt may start (pay-flow.ts) while it is left to
 * expire at the service. Once final, the outcome is what the payer sees.
 */
export function approvalUnavailableFor(payment: Pick<PaymentRecord, 'authorizationRefused' | 'state'>): boolean {
  return Boolean(payment.authorizationRefused) && payment.state !== 'completed' && payment.state !== 'failed';
}

export function checkoutView(checkout: CheckoutRecord, countries: CountryView[]): CheckoutView {
  return {
    orderId: checkout.orderId,
    amount: checkout.amount,
    currencyCode: checkout.currencyCode,
    decimalPlaces: checkout.decimalPlaces,
    expiresAt: new Date(checkout.expiresAt).toISOString(),
    countries,
    payment: paymentView(checkout),
  };
}

/**
 * A payment whose verified notification named another amount or number than the attempt's: never
 * paid, never refunded, listed for support with the sentence to send (payments-list.ts).
 */
export function heldForSupport(payment: Pick<PaymentRecord, 'amountMismatch' | 'phoneMismatch'>): boolean {
  return payment.amountMismatch || payment.phoneMismatch === true;
}
