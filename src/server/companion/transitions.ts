/**
 * Payment state changes: monotone (§3: statuses never go back, whatever the arrival order), atomic
 * through the store's compare-and-set, published to the status streams, and reported to the
 * merchant's `onPaymentUpdate` exactly once per transition.
 */
import { finalPaymentStates, type PaymentState } from '../../contract/companion.js';
import type { Logger } from '../log.js';
import type { PaymentUpdate } from './events.js';
import type { CheckoutRecord, PaymentRecord } from './records.js';
import type { StatusHub } from './status-hub.js';
import { transitionCheckout, type CheckoutStore } from './store.js';
import { paymentView } from './view.js';
import { checkoutRetentionMs } from './checkouts.js';

/** Progress order: a change may only move up (or keep the rank and add information). */
const rank: Record<PaymentState, number> = {
  'needs-otp': 0,
  unknown: 1,
  pending: 2,
  'awaiting-redirect': 2,
  'redirect-ready': 3,
  completed: 4,
  failed: 4,
};

export function isFinal(state: PaymentState): boolean {
  return finalPaymentStates.includes(state);
}

/** True when `next` is a move forward from `current` (or the first state). */
export function movesForward(current: PaymentState | undefined, next: PaymentState): boolean {
  if (current === undefined) return true;
  if (isFinal(current)) return false;
  return rank[next] > rank[current];
}

export interface Transitions {
  /**
   * Applies `change` to the checkout's payment. `change` returns the new payment or null for no
   * change. Visible changes bump the version and are published; a state change is reported to
   * `onPaymentUpdate` once. `silent` writes (bookkeeping before an upstream call) do neither.
   */
  update(
    orderId: string,
    change: (payment: PaymentRecord | null, checkout: CheckoutRecord) => PaymentRecord | null,
    options?: { silent?: boolean },
  ): Promise<{ changed: boolean; checkout: CheckoutRecord | undefined }>;
}

export function createTransitions(deps: {
  store: CheckoutStore;
  hub: StatusHub;
  log: Logger;
  now: () => number;
  onPaymentUpdate?: (update: PaymentUpdate) => void | Promise<void>;
}): Transitions {
  return {
    async update(orderId, change, options = {}) {
      const result = await transitionCheckout(deps.store, orderId, (checkout) => {
        const next = change(checkout.payment, checkout);
        if (!next) return null;
        return {
          ...checkout,
          payment: { ...next, updatedAt: deps.now() },
          version: options.silent ? checkout.version : checkout.version + 1,
          retainUntil: Math.max(checkout.retainUntil, deps.now() + checkoutRetentionMs),
        };
      });
      const checkout = result.record;
      if (!result.changed || !checkout || options.silent) return { changed: result.changed, checkout };
      const view = paymentView(checkout);
      if (!view) return { changed: true, checkout };
      deps.hub.publish(orderId, view);
      const before = result.previous?.payment ?? null;
      const after = checkout.payment!;
      const stateChanged = before?.state !== after.state || before?.attempt !== after.attempt;
      const flagged = after.amountMismatch && !before?.amountMismatch;
      if ((stateChanged || flagged) && deps.onPaymentUpdate) {
        const update: PaymentUpdate = {
          orderId,
          idempotencyKey: `${orderId}.${checkout.version}`,
          amount: checkout.amount,
          currencyCode: checkout.currencyCode,
          payment: view,
          previousState: before?.state ?? null,
          amountMismatch: after.amountMismatch,
        };
        // The state is already stored: a failing callback is logged, never undone.
        try {
          await deps.onPaymentUpdate(update);
        } catch (error) {
          deps.log.error('onPaymentUpdate threw; the payment state is kept', { orderId, state: after.state, error });
        }
      }
      return { changed: true, checkout };
    },
  };
}
