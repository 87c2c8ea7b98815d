/**
 * How a refund's refusal is said over HTTP: its status and the `{ error: { code, message } }` body,
 * one table for both ways a refund comes in (the server API's refund route and the console's), kept
 * out of refunds/ so the rules never know HTTP, and in one place so a new code cannot miss its
 * status and the two ways cannot drift.
 */
import type { RefundRefusal, RefundRefusalCode } from '../refunds/refund-refusal.js';

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

/** The body and status a route answers a refusal with: `c.json(...refundRefusalAnswer(error))`. */
export function refundRefusalAnswer(refusal: RefundRefusal) {
  return [{ error: { code: refusal.code, message: refusal.message } }, refundRefusalStatus[refusal.code]] as const;
}
