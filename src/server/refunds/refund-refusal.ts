/**
 * Why a refund was refused: a code the shop's code can branch on and a sentence saying what to do.
 * A domain error: refunds/ throws it without knowing HTTP; each code's status is in
 * http-answers/refund-answers.ts, the one table the server API and the console answer with.
 */
export type RefundRefusalCode =
  /** Refunds are off until the shop turns them on (MOMO_REFUNDS=on, `refunds: true`). */
  | 'REFUNDS_DISABLED'
  /** The body is malformed (refundId, amount, reason). */
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  /** The payment is not `completed`, or its notified amount differed. */
  | 'NOT_REFUNDABLE'
  /** The amount has more decimals than the currency allows, or is not a positive decimal. */
  | 'AMOUNT_INVALID'
  /** The refunds not failed would add up to more than the amount paid. */
  | 'EXCEEDS_PAID_AMOUNT'
  /** This refundId was used for another amount or reason. */
  | 'REFUND_ID_REUSED'
  /** The same refund is being sent by another call right now. */
  | 'REFUND_IN_PROGRESS'
  /** Every pay-out order id this refund could take belongs to another order: nothing was sent. */
  | 'NO_PAYOUT_ID';

export class RefundRefusal extends Error {
  override name = 'RefundRefusal';
  constructor(
    readonly code: RefundRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

