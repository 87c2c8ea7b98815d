/**
 * The service's re-post rule (§4.1, §7), the one implementation money in (payments/pay-flow.ts)
 * and money out (refunds/refund-flow.ts) share, so that the two cannot drift apart again:
 *
 * - a lost answer (a timeout, a reset, a 5xx: `outcomeUnknown`) is posted again once, with the
 *   same order id and the same body; still lost, the outcome is `unknown`;
 * - a `409` is ours only if we posted that exact request: in this call (its first answer was
 *   lost), or in an earlier call whose outcome stayed unknown (`postedBefore`, which only the caller's
 *   record can tell). Otherwise the transaction under that order id is someone else's: `not-ours`;
 * - every other error is the caller's to map: it alone knows what a refusal means to its payer or shop.
 *
 * "That exact request" is {@link postedRequestKey}: the order id, amount, currency, number and
 * operator choice. The OTP and the return URLs are left out: §7 asks for them on a re-post of the
 * same order id, after a 422 that created nothing.
 */
import { ServiceError, AlreadyExistsError } from './errors.js';

export type RepostOutcome<T> =
  | { kind: 'answered'; answer: T }
  /** 409 to a request we had posted: the transaction exists, and it is ours. */
  | { kind: 'exists' }
  /** 409 to a request we never posted: someone else's transaction holds this order id. */
  | { kind: 'not-ours' }
  /** The answer was lost twice: it may or may not exist. */
  | { kind: 'unknown' };

export interface RepostOptions {
  /** True when an earlier call posted this exact request and never learned its outcome. */
  postedBefore: boolean;
  /** Told of each lost answer (for the log), before the re-post or the `unknown`. */
  onLostAnswer?: (error: ServiceError, retried: boolean) => void;
}

export async function postUnderRepostRule<T>(post: () => Promise<T>, options: RepostOptions): Promise<RepostOutcome<T>> {
  let lostOnce = false;
  for (;;) {
    try {
      return { kind: 'answered', answer: await post() };
    } catch (error) {
      if (error instanceof AlreadyExistsError) return options.postedBefore || lostOnce ? { kind: 'exists' } : { kind: 'not-ours' };
      if (error instanceof ServiceError && error.outcomeUnknown) {
        options.onLostAnswer?.(error, lostOnce);
        if (lostOnce) return { kind: 'unknown' };
        lostOnce = true;
        continue;
      }
      throw error;
    }
  }
}

/** What makes two posts "the same request" to the service: everything but the OTP and return URLs. */
export interface PostedRequestFields {
  orderId: string;
  amount: string;
  currencyCode: string;
  phoneNumber: string;
  operatorCode?: string | undefined;
}

/** A stable key of a request's fields, kept on the record before it is posted. */
export function postedRequestKey(request: PostedRequestFields): string {
  return JSON.stringify([request.orderId, request.amount, request.currencyCode, request.phoneNumber, request.operatorCode ?? null]);
}
