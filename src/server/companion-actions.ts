/**
 * The companion's actions on a store (create a checkout, list payments, refund, payment links), built once per
 * store: the library's calls use the store as given, the server API and the console the same store
 * behind a deadline (`stores/store-guard.ts`), so an unusable store is a 503 in time.
 */
import type { Logger } from './log.js';
import type { CompanionOptions } from './options.js';
import type { SinksByKind } from './deliveries/delivery-sinks.js';
import { createCheckoutRecord, type CheckoutOrder } from './payments/checkouts.js';
import type { Discovery } from './payments/discovery.js';
import { refuseUnpayable } from './payments/payable.js';
import { listPaymentSummaries, type PaymentListQuery } from './payments/payments-list.js';
import { refundPayment, type RefundDeps } from './refunds/refund-flow.js';
import type { RefundRequest } from './refunds/refund-rules.js';
import type { ServiceClient } from './service-client/index.js';
import type { CheckoutStore } from './stores/store.js';
import { companionDefaults } from './model/option-defaults.js';
import { linkActions } from './links/link-actions.js';

export interface CompanionActionDeps {
  /** Only what the actions read: attempts per checkout, whether refunds are on, and the server secret (a payment link's id derived from its Idempotency-Key). */
  options: Pick<CompanionOptions, 'maxAttempts' | 'refunds' | 'serverSecret'>;
  discovery: Discovery;
  service: ServiceClient;
  log: Logger;
  now: () => number;
  checkoutTtlMs: number;
  defaultReturnUrl: string | null;
  /** The companion's public base URL (the pay-out's notification URL is under it). */
  base: string;
  /** Where each kind of change is queued (deliveries/delivery-sinks.ts `sinksByKind`). */
  sinks: SinksByKind;
  onRefundQueued: (orderId: string) => void;
}

export function companionActions(deps: CompanionActionDeps) {
  const { options, discovery, service, log, now } = deps;
  /** A checkout of the merchant's order, or (with `linkId`) of a payer of a payment link. */
  const checkoutsIn = (on: CheckoutStore) => ({ linkId, ...order }: CheckoutOrder & { linkId?: string }) =>
    createCheckoutRecord(on, order, {
      ttlMs: deps.checkoutTtlMs,
      maxAttempts: options.maxAttempts ?? companionDefaults.maxAttempts,
      now,
      defaultReturnUrl: deps.defaultReturnUrl,
      checkPayable: (payable) => refuseUnpayable(payable, discovery, log),
      ...(linkId !== undefined ? { linkId } : {}),
    });
  const paymentsIn = (on: CheckoutStore) => (query: PaymentListQuery = {}) => listPaymentSummaries(on, query, now());
  const refundDepsOn = (on: CheckoutStore): RefundDeps => ({
    service,
    store: on,
    log,
    now,
    sinks: deps.sinks.refund,
    onQueued: deps.onRefundQueued,
    webhookUrl: `${deps.base}/webhook`,
    enabled: options.refunds === true,
  });
  const refundsIn = (on: CheckoutStore) => {
    const refundDeps = refundDepsOn(on);
    return (orderId: string, request: RefundRequest) => refundPayment(refundDeps, orderId, request);
  };
  const linksIn = (on: CheckoutStore) =>
    linkActions({
      store: on,
      now,
      base: deps.base,
      ...(options.serverSecret !== undefined ? { idKeySecret: options.serverSecret } : {}),
      discovery,
      defaultReturnUrl: deps.defaultReturnUrl,
    });
  return { checkoutsIn, paymentsIn, refundDepsOn, refundsIn, linksIn };
}
