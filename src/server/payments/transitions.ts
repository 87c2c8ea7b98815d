/**
 * Payment state changes: monotone (§3: statuses never go back, whatever the arrival order), atomic
 * through the store's compare-and-set, published to the status streams, and queued for the
 * merchant in the same write (deliveries/delivery-worker.ts delivers them, at least once, in order).
 */
import { finalPaymentStates, type PaymentState } from '../../contract/companion.js';
import type { PaymentUpdate } from '../model/payment-update.js';
import { queuedDeliveries, withTimelineEntry, type CheckoutRecord, type DeliverySink, type PaymentRecord } from '../model/records.js';
import type { StatusHub } from '../stores/status-hub.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { heldForSupport, paymentView } from '../model/payment-view.js';
import { checkoutRetentionMs } from './checkouts.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';

/**
 * Progress order: a change may only move up (or keep the rank and add information). A rule over
 * the states, not a list of them (`paymentStates` in contract/companion.ts): the type makes it
 * name every state.
 */
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
   * change. Visible changes bump the version and are published; a state change is queued for the
   * merchant (`onPaymentUpdate`, the merchant's webhook) in the same write, delivered by the
   * delivery worker after it: the caller never waits for merchant code. `silent` writes
   * (bookkeeping before an upstream call) do neither.
   */
  update(
    orderId: string,
    change: (payment: PaymentRecord | null, checkout: CheckoutRecord) => PaymentRecord | null,
    options?: {
      silent?: boolean;
      /** The verified service notification that asked for this change: kept in the timeline even when nothing changes. */
      received?: { status: string; serviceOrderId: string };
      /** The checkout as the caller has just read it (`updateCheckoutRecord`'s `justRead`): not read again unless it changed since. */
      justRead?: CheckoutRecord;
    },
  ): Promise<{ changed: boolean; checkout: CheckoutRecord | undefined }>;
}

export function createTransitions(deps: {
  store: CheckoutStore;
  hub: StatusHub;
  now: () => number;
  /** Where transitions are reported; none: nothing is queued. */
  sinks: readonly DeliverySink[];
  /** Called after a write that queued deliveries, so they go out at once. */
  onQueued?: (orderId: string) => void;
  metrics?: MetricsRecorder;
  /** After a payment's change is written and published: its payment link told how it ended (links/link-payments.ts). */
  afterChange?: (checkout: CheckoutRecord) => Promise<void>;
}): Transitions {
  return {
    async update(orderId, change, options = {}) {
      // Whether the payment itself changed (a timeline-only write is not a change for anyone).
      let paymentChanged = false;
      const result = await updateCheckoutRecord(deps.store, orderId, (checkout) => {
        const next = change(checkout.payment, checkout);
        paymentChanged = next !== null;
        const at = deps.now();
        const heard = options.received ? { ...checkout, timeline: withTimelineEntry(checkout, { kind: 'notification', at, ...options.received }) } : null;
        // A notification that changes nothing is still kept in the timeline, in a write no one is told of.
        if (!next) return heard;
        const base = heard ?? checkout;
        const movedOn = next.state !== checkout.payment?.state || next.attempt !== checkout.payment?.attempt;
        const updated: CheckoutRecord = {
          ...base,
          ...(movedOn ? { timeline: withTimelineEntry(base, { kind: 'state', at, state: next.state, attempt: next.attempt }) } : {}),
          payment: { ...next, updatedAt: at },
          version: options.silent ? checkout.version : checkout.version + 1,
          retainUntil: Math.max(checkout.retainUntil, at + checkoutRetentionMs),
        };
        if (options.silent) return updated;
        const update = reportable(checkout, updated);
        if (!update) return updated;
        const queued = queuedDeliveries('payment', update, deps.sinks, at);
        return { ...updated, deliveries: [...(checkout.deliveries ?? []), ...queued] };
      }, options.justRead);
      const checkout = result.record;
      const changed = result.changed && paymentChanged;
      if (!changed || !checkout || options.silent) return { changed, checkout };
      const view = paymentView(checkout);
      if (view) deps.hub.publish(orderId, view);
      deps.metrics?.paymentChanged(result.previous?.payment, checkout.payment);
      if ((checkout.deliveries?.length ?? 0) > (result.previous?.deliveries?.length ?? 0)) deps.onQueued?.(orderId);
      await deps.afterChange?.(checkout);
      return { changed: true, checkout };
    },
  };
}

/** The update a merchant is told about, or null when the change is not a transition for them. */
function reportable(before: CheckoutRecord, after: CheckoutRecord): PaymentUpdate | null {
  const previous = before.payment;
  const payment = after.payment!;
  const stateChanged = previous?.state !== payment.state || previous?.attempt !== payment.attempt;
  const flagged = heldForSupport(payment) && !(previous && heldForSupport(previous));
  if (!stateChanged && !flagged) return null;
  const view = paymentView(after)!;
  return {
    orderId: after.orderId,
    idempotencyKey: idempotencyKey(after),
    amount: after.amount,
    currencyCode: after.currencyCode,
    payment: view,
    previousState: previous?.state ?? null,
    amountMismatch: payment.amountMismatch,
    phoneMismatch: payment.phoneMismatch === true,
    ...(after.linkId !== undefined ? { linkId: after.linkId } : {}),
  };
}

/**
 * One transition, one key, unique for ever: the version is unique per visible change within one
 * life of the order id, the life id across its lives (an order id created again after its record
 * expired). A record written before life ids keeps its old form, `<orderId>.<version>`, which its
 * earlier notifications used: its keys stay unique within its life, and its next life has an id.
 */
function idempotencyKey(record: CheckoutRecord): string {
  return record.lifeId ? `${record.orderId}.${record.lifeId}.${record.version}` : `${record.orderId}.${record.version}`;
}
