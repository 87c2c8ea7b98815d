/**
 * The rules a refund must pass before anything is written (each refusal a code and a sentence):
 * only a `completed` payment whose notified amount and number matched, paid back to the number the
 * service reported; the currency's decimals as for a
 * checkout (§2.1: never rounded); the refunds not failed never above the amount paid; the same
 * refundId only with the same body. Pure functions of the checkout record: the refund flow runs
 * them inside the store's compare-and-set, so they hold across processes.
 */
import { compareAmounts, fromMinorUnits, parseAmount, toMinorUnits } from '../../contract/money.js';
import type { CheckoutRecord } from '../model/records.js';
import type { RefundRecord } from '../model/refund.js';
import { isoMinorUnits } from '../payments/iso-decimals.js';
import { RefundRefusal } from './refund-refusal.js';

export interface RefundRequest {
  /** The shop's own id: the idempotency key. */
  refundId: string;
  /** Decimal string, major unit. */
  amount: string;
  reason?: string | undefined;
}

const refundIdPattern = /^[A-Za-z0-9_.:-]{1,100}$/;
export const maxReasonLength = 500;

/** Checks the request's shape; returns the refund id and reason as kept. */
export function checkRefundRequest(request: RefundRequest): { refundId: string; reason: string | null } {
  if (typeof request.refundId !== 'string' || !refundIdPattern.test(request.refundId)) {
    throw new RefundRefusal('BAD_REQUEST', 'refundId must be your own id for this refund: 1 to 100 letters, digits, "-", "_", "." or ":". Send the same one again to repeat the call safely.');
  }
  if (typeof request.amount !== 'string') {
    throw new RefundRefusal('AMOUNT_INVALID', 'amount must be a decimal string such as "5000" or "12.50", never a JSON number (floats lose digits).');
  }
  if (request.reason !== undefined && (typeof request.reason !== 'string' || request.reason.length > maxReasonLength)) {
    throw new RefundRefusal('BAD_REQUEST', `reason, when given, must be a text of at most ${maxReasonLength} characters.`);
  }
  return { refundId: request.refundId, reason: request.reason === undefined ? null : keptReason(request.reason) };
}

/**
 * The reason as kept (issue 55). Every store keeps any text now, but two kinds of character are
 * decided here, where the merchant can still be told:
 * - a NUL is refused, naming the field: it is never meant as text (a C string's end, a padding
 *   byte), and the reason goes on to the merchant's own systems (`refund.updated`, the export),
 *   where a database like PostgreSQL refuses it again, far from the request that sent it;
 * - a lone surrogate (half of an emoji cut by `slice` before JSON.stringify) becomes U+FFFD, the
 *   character any UTF-8 encoder writes for it: the merchant meant a character, and the rest of the
 *   reason stands. A repeat of the request makes the same reason, so the refund stays idempotent.
 */
function keptReason(reason: string): string {
  if (reason.includes('\u0000')) {
    throw new RefundRefusal('BAD_REQUEST', 'reason holds a NUL character (\\u0000), which no refund reason can hold: send the reason as text without it.');
  }
  return reason.replace(/\p{Cs}/gu, '\ufffd');
}

/** The amount in canonical form, checked against the currency's decimals. */
export function refundAmount(checkout: CheckoutRecord, amount: string): string {
  const decimals = checkout.decimalPlaces ?? isoMinorUnits(checkout.currencyCode);
  if (decimals === null) {
    throw new RefundRefusal('AMOUNT_INVALID', `The decimals of ${checkout.currencyCode} are not known yet for this order: nothing was sent. Contact support with the order id.`);
  }
  const parsed = parseAmount(amount, decimals);
  if (!parsed.ok) throw new RefundRefusal('AMOUNT_INVALID', `amount ${JSON.stringify(amount)}: ${parsed.message}`);
  return parsed.amount;
}

/**
 * True when `refund` is the refund a request asks for again: the same amount, and the same reason
 * when the request gives one (`undefined`: resumed by refundId and amount alone, any reason stored).
 */
export function sameRefund(refund: RefundRecord, amount: string, reason: string | null | undefined): boolean {
  return compareAmounts(refund.amount, amount) === 0 && (reason === undefined || refund.reason === reason);
}

/** What is left to refund of the amount paid: the amount less every refund not failed (exact, never floats). */
export function refundableAmount(checkout: CheckoutRecord): string {
  const { scale, paid, committed } = refundTotals(checkout);
  const left = paid - committed;
  return fromMinorUnits(left > 0n ? left : 0n, scale);
}

/**
 * The amount paid and the refunds not failed, as integers at the finest scale any of them (or the
 * amount asked) is written in: exact arithmetic, never floats.
 */
function refundTotals(checkout: CheckoutRecord, asked?: string): { scale: number; paid: bigint; committed: bigint } {
  const refunds = checkout.refunds ?? [];
  const amounts = [checkout.amount, ...(asked === undefined ? [] : [asked]), ...refunds.map((refund) => refund.amount)];
  const scale = Math.max(...amounts.map((value) => value.split('.')[1]?.length ?? 0));
  const committed = refunds.filter((refund) => refund.state !== 'failed').reduce((sum, refund) => sum + toMinorUnits(refund.amount, scale), 0n);
  return { scale, paid: toMinorUnits(checkout.amount, scale), committed };
}

/** Throws unless a new refund of `amount` may be added to `checkout` now. */
export function checkRefundable(checkout: CheckoutRecord, amount: string): void {
  const payment = checkout.payment;
  if (!payment || payment.state !== 'completed') {
    throw new RefundRefusal('NOT_REFUNDABLE', `Order ${checkout.orderId} has no completed payment (${payment ? `it is ${payment.state}` : 'none was started'}): only a completed payment is refunded.`);
  }
  if (payment.amountMismatch) {
    throw new RefundRefusal('NOT_REFUNDABLE', `The payment of order ${checkout.orderId} was notified for another amount than the order's: it is not refunded here. Contact the payment service's support.`);
  }
  if (payment.phoneMismatch) {
    throw new RefundRefusal('NOT_REFUNDABLE', `The service reported the payment of order ${checkout.orderId} as made from another number than the one it was sent to: it is held for support and not refunded here. Contact the payment service's support with the order id.`);
  }
  if (!payment.reportedPhoneNumber) {
    // Completed before the companion kept the number the service reported: the number on the
    // record is the one typed, which an earlier version could overwrite (CHANGELOG). No guess.
    throw new RefundRefusal('NOT_REFUNDABLE', `The payment of order ${checkout.orderId} was completed before this version kept the number the payment service reported as paying, so its refund cannot be sent to a number we can vouch for: refund it from the payment service's dashboard.`);
  }
  const { scale, paid, committed } = refundTotals(checkout, amount);
  if (committed + toMinorUnits(amount, scale) > paid) {
    throw new RefundRefusal(
      'EXCEEDS_PAID_AMOUNT',
      `Refunding ${amount} ${checkout.currencyCode} would take the refunds of order ${checkout.orderId} above the ${checkout.amount} paid (${fromMinorUnits(committed, scale)} already refunded or under way): at most ${fromMinorUnits(paid - committed, scale)} is left.`,
    );
  }
}
