/**
 * What the store contract's parts share: the store factory they are given, and the records they
 * write (`momo-checkout/store-contract` exports them too, for a store's own tests): a checkout, a
 * payment, a refund, a page's view of a payment and a queued delivery, shaped as the companion
 * writes them, with ids unique in the process.
 */
import type { PaymentState, PaymentView } from '../../../contract/companion.js';
import type { CheckoutRecord, DeliveryRecord, PaymentRecord } from '../../model/records.js';
import { newRefundRecord, type RefundRecord } from '../../model/refund.js';
import type { CheckoutStore } from '../store.js';

/** Makes the store under test, on the contract's injected clock. */
export type MakeStore = (deps: { now: () => number }) => CheckoutStore | Promise<CheckoutStore>;

let sequence = 0;

/** A number no other sample of this process has had: for ids the contract's cases make up. */
export function nextSampleNumber(): number {
  return ++sequence;
}

/** A checkout record as the companion writes it, with unique ids. */
export function sampleRecord(overrides: Partial<CheckoutRecord> = {}): CheckoutRecord {
  const n = nextSampleNumber();
  return {
    orderId: `contract-order-${n}`,
    amount: '5000',
    currencyCode: 'XOF',
    decimalPlaces: null,
    token: `token-${n}`,
    tokenHash: `token-hash-${n}`,
    returnId: `return-${n}`,
    returnUrl: null,
    maxAttempts: 3,
    createdAt: 0,
    expiresAt: 30 * 60_000,
    revision: 0,
    version: 0,
    // Ahead of both clocks a store may keep: the contract's injected one (1_000_000) and, for a
    // `realClock` store whose backend expires keys by itself, the real one (a retainUntil in 1970
    // would be gone the moment it is written).
    retainUntil: Date.now() + 24 * 60 * 60_000,
    payment: null,
    deliveries: [],
    deliveryLog: [],
    ...overrides,
  };
}

/** A payment as the pay flow writes it before its pay-in, for store tests. */
export function samplePayment(serviceOrderId: string, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    state: 'pending',
    attempt: 1,
    serviceOrderId,
    phoneNumber: '+2290196000001',
    useWallet: false,
    operator: null,
    workflow: 'provider_auth',
    authorizationUrl: null,
    returned: false,
    amountMismatch: false,
    lastServiceStatus: null,
    transactionId: null,
    updatedAt: 0,
    ...overrides,
  };
}

/** `record` with a payment attempt and the next revision, as a compare-and-set would write it. */
export function withPayment(record: CheckoutRecord, serviceOrderId: string, attempt = 1, state: PaymentState = 'pending', updatedAt = 0): CheckoutRecord {
  // A completed payment was completed by a notification, which reported the number that paid.
  const reported = state === 'completed' ? { reportedPhoneNumber: '+2290196000001' } : {};
  return { ...record, revision: record.revision + 1, payment: samplePayment(serviceOrderId, { attempt, state, updatedAt, ...reported }) };
}

/** A refund as the refund flow writes it before its pay-out, for store tests. */
export function sampleRefund(refundId: string, payoutOrderId: string, amount = '1000'): RefundRecord {
  return newRefundRecord({ refundId, payoutOrderId, amount, reason: null, phoneNumber: '+2290196000001' }, 0);
}

/** `record` with `refund` added and the next revision, as the refund flow's compare-and-set writes it. */
export function withRefund(record: CheckoutRecord, refund: RefundRecord): CheckoutRecord {
  return { ...record, revision: record.revision + 1, refunds: [...(record.refunds ?? []), refund] };
}

/** A payment as the page sees it, for store and status-hub tests. */
export function samplePaymentView(orderId: string, version: number): PaymentView {
  return {
    state: 'pending',
    version,
    orderId,
    phoneNumberMasked: '+229 •• •• •• •• 01',
    operator: null,
    workflow: null,
    instructions: null,
    authorizationUrl: null,
    returned: false,
    canRetry: false,
    updatedAt: new Date(0).toISOString(),
  };
}

/** A queued delivery of an order's transition `version` to `sink`, for store tests. */
export function sampleDelivery(orderId: string, version: number, sink: DeliveryRecord['sink'], nextAttemptAt: number): DeliveryRecord {
  return {
    id: `${orderId}.${version}`,
    sink,
    createdAt: 0,
    attempts: 0,
    nextAttemptAt,
    update: {
      orderId,
      idempotencyKey: `${orderId}.${version}`,
      amount: '5000',
      currencyCode: 'XOF',
      previousState: null,
      amountMismatch: false,
      phoneMismatch: false,
      payment: samplePaymentView(orderId, version),
    },
  };
}
