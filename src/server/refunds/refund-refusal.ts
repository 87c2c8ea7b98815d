/**
 * Why a refund was refused: a code the shop's code can branch on and a sentence saying what to do.
 * A domain error: refunds/ throws it without knowing HTTP; the server API maps each code to a status.
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

/**
 * The HTTP status of each refusal: the one mapping both route layers answer with (the server API's
 * refund route and the console's), kept beside the codes so that a new code cannot miss its status
 * and the two cannot drift. The routes build the answers; nothing below them knows HTTP.
 */
export const refundRefusalStatus: Record<RefundRefusalCode, 400 | 403 | 404 | 409 | 422 | 500> = {
  REFUNDS_DISABLED: 403,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  NOT_REFUNDABLE: 409,
  REFUND_ID_REUSED: 409,
  REFUND_IN_PROGRESS: 409,
  AMOUNT_INVALID: 422,
  EXCEEDS_PAID_AMOUNT: 422,
  NO_PAYOUT_ID: 500,
};
