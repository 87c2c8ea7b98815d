/** What the page may see of a payment: masked number, no secrets, no upstream text. */
import type { CheckoutView, CountryView, PaymentView } from '../../contract/companion.js';
import { redactPhone } from '../../contract/phone.js';
import type { CheckoutRecord } from './records.js';

export function paymentView(checkout: CheckoutRecord): PaymentView | null {
  const payment = checkout.payment;
  if (!payment) return null;
  // A payment whose notified amount differed is never shown as paid, to the payer or in
  // onPaymentUpdate (the webhook handler also stores it as failed; this holds for older records).
  const state = payment.amountMismatch ? 'failed' : payment.state;
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
    canRetry: state === 'failed' && !payment.amountMismatch && payment.attempt < checkout.maxAttempts,
    updatedAt: new Date(payment.updatedAt).toISOString(),
  };
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
