/**
 * A refund as the companion keeps it, inside its checkout record (records.ts): one compare-and-set
 * writes a new refund and checks that the refunds not failed never add up to more than the amount
 * paid, so two processes racing cannot both win. The refund's pay-out order id is claimed in the
 * store's registry of service order ids, like a pay-in attempt's (store.ts), so a pay-out
 * notification finds its order, and no checkout or attempt can ever be sent under it.
 */
import { redactPhone } from '../../contract/phone.js';

/**
 * - `sending`: written, the pay-out posted or about to be, its answer not written yet (a crash
 *   leaves it here; repeating the refund posts the same pay-out order id again: a 409 means it exists);
 * - `unknown`: the answer was lost twice, or the service holds someone else's transaction under
 *   this id: listed for support, never posted under a new id;
 * - `pending`: the service accepted the pay-out; its notification settles it;
 * - `completed` / `failed`: final (a failed refund no longer counts against the amount paid).
 */
export type RefundState = 'sending' | 'unknown' | 'pending' | 'completed' | 'failed';

export const refundStates: readonly RefundState[] = ['sending', 'unknown', 'pending', 'completed', 'failed'];

export interface RefundRecord {
  /** The shop's own id: the idempotency key of the refund. */
  refundId: string;
  /** The `orderId` of the pay-out, `<orderId>-r<N>`, given to this order alone by the store. */
  payoutOrderId: string;
  /** Canonical decimal string, major unit, in the checkout's currency. */
  amount: string;
  reason: string | null;
  /** E.164: the number that paid (server-side only; views mask it). */
  phoneNumber: string;
  state: RefundState;
  /** The service's id of the pay-out, from its answer: what support needs. */
  transactionId: string | null;
  failureCategory: string | null;
  failureReason: string | null;
  /** The balance the pay-out answer reported (`newBalance`), as a decimal string. */
  newBalance: string | null;
  /** The last status a verified notification carried, as written. */
  lastServiceStatus: string | null;
  /** A notification's amount differed from the refund's: logged and kept for support. */
  amountMismatch: boolean;
  /** The service answered 409 to a first post: the transaction under this id is not ours. */
  payoutIdConflict: boolean;
  /**
   * A validly signed notification of this pay-out refused only for its timestamp (this server's
   * clock?): the service never sends it again, so the refund is listed for support.
   */
  refusedNotification?: { status: string; sentAt: number; receivedAt: number } | null;
  /** When `onStale` was told about this refund (it is told once). */
  staleReportedAt?: number | null;
  /** Increases at every change the merchant is told about: part of the delivery's idempotency key. */
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** What the shop sees of a refund (server API, `onRefundUpdate`, `refund.updated`). */
export interface RefundView {
  refundId: string;
  payoutOrderId: string;
  amount: string;
  currencyCode: string;
  reason: string | null;
  state: RefundState;
  phoneNumberMasked: string;
  transactionId: string | null;
  failureCategory: string | null;
  failureReason: string | null;
  newBalance: string | null;
  amountMismatch: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What `onRefundUpdate` and a `refund.updated` merchant notification carry: one per change of state. */
export interface RefundUpdate {
  /** The merchant's order id. */
  orderId: string;
  /** The same on every delivery of one change, never the same for two: record it, skip a repeat. */
  idempotencyKey: string;
  refund: RefundView;
  previousState: RefundState | null;
}

/** A refund as first written, before its pay-out is posted (state `sending`). */
export function newRefundRecord(fields: Pick<RefundRecord, 'refundId' | 'payoutOrderId' | 'amount' | 'reason' | 'phoneNumber'>, at: number): RefundRecord {
  return {
    ...fields,
    state: 'sending',
    transactionId: null,
    failureCategory: null,
    failureReason: null,
    newBalance: null,
    lastServiceStatus: null,
    amountMismatch: false,
    payoutIdConflict: false,
    version: 0,
    createdAt: at,
    updatedAt: at,
  };
}

export function refundView(refund: RefundRecord, currencyCode: string): RefundView {
  const iso = (at: number) => new Date(at).toISOString();
  return {
    refundId: refund.refundId,
    payoutOrderId: refund.payoutOrderId,
    amount: refund.amount,
    currencyCode,
    reason: refund.reason,
    state: refund.state,
    phoneNumberMasked: redactPhone(refund.phoneNumber),
    transactionId: refund.transactionId,
    failureCategory: refund.failureCategory,
    failureReason: refund.failureReason,
    newBalance: refund.newBalance,
    amountMismatch: refund.amountMismatch,
    createdAt: iso(refund.createdAt),
    updatedAt: iso(refund.updatedAt),
  };
}
