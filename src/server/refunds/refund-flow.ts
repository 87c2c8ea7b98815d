/**
 * Part `refunds/` (docs/architecture.md): giving a payer their money back through a pay-out
 * (§4.3) to the number that paid: the rules, the pay-out order ids, the flow that posts it exactly
 * once, and a pay-out notification applied to its refund. May import payments/, stores/, model/
 * and the foundation; the notifications, the server API and the composition root call it.
 *
 * A pay-out with an API key executes at once (§4.3, §5.3: no approval circuit), so the flow is the
 * pay-in's (payments/pay-flow.ts) made for money going out:
 *
 * 1. the rules are checked and the refund written (state `sending`) in one compare-and-set, with a
 *    pay-out order id the store gives this order alone, before anything is posted: a crash after
 *    the post loses nothing, and the refunds not failed never exceed the amount paid, across processes;
 * 2. the pay-out is posted to the number that paid (there is no field to name another);
 * 3. the service's re-post rule, shared with the pay-in (service-client/repost-rule.ts): a lost
 *    answer or a 5xx is posted again with the same id; still lost, the refund is `unknown`
 *    (repeating the refund posts it again: a `409` then means it exists); a `409` to a first post is
 *    someone else's transaction: `unknown` for support, never posted under another id;
 * 4. a synchronous failure (`failureCategory`, `failureReason`) makes it `failed`, with the balance
 *    the service reported; otherwise it is `pending` until the service's notification settles it.
 *
 * One call at a time per refund (a store lock): two calls with the same refundId post once.
 */
import type { Logger } from '../log.js';
import { amountFromNumber } from '../../contract/money.js';
import type { PayOutRequest } from '../../contract/upstream/index.js';
import { ServiceError, postUnderRepostRule, type ServiceClient } from '../service-client/index.js';
import { newRefundRecord, refundView, type RefundRecord, type RefundState, type RefundView } from '../model/refund.js';
import { StoreConflictError, updateCheckoutRecord } from '../stores/store.js';
import { checkoutRetentionMs } from '../payments/checkouts.js';
import { randomId } from '../tokens.js';
import { changeRefund, refundMovesForward, type RefundChangeDeps } from './refund-changes.js';
import { RefundRefusal } from './refund-refusal.js';
import { checkRefundable, checkRefundRequest, refundAmount, sameRefund, type RefundRequest } from './refund-rules.js';
import { maxPayoutIdTries, payoutOrderId } from './payout-ids.js';

export interface RefundDeps extends RefundChangeDeps {
  service: ServiceClient;
  log: Logger;
  /** `<publicUrl>/webhook`: the pay-out's notifications come back to the companion. */
  webhookUrl: string;
  /** Off until the shop turns refunds on (MOMO_REFUNDS=on, `refunds: true`): they move money out. */
  enabled: boolean;
}

/** How long one call holds a refund; a refund left `sending` longer was stopped (resume-refunds.ts). */
export const refundLockTtlMs = 60_000;

/**
 * Refunds `amount` of the order's completed payment to the number that paid. Idempotent on
 * `refundId`: the same body answers the same refund (and resumes one whose answer was lost).
 */
export async function refundPayment(deps: RefundDeps, orderId: string, request: RefundRequest): Promise<RefundView> {
  if (!deps.enabled) {
    throw new RefundRefusal('REFUNDS_DISABLED', 'Refunds are off: they send money out of your balance at once. Turn them on with MOMO_REFUNDS=on (or `refunds: true` in createCompanion).');
  }
  const { refundId, reason } = checkRefundRequest(request);
  // Resuming with { refundId, amount } alone matches whatever reason was stored (the console stores one).
  const reasonToMatch = request.reason === undefined ? undefined : reason;
  const checkout = await deps.store.getByOrderId(orderId);
  if (!checkout) throw new RefundRefusal('NOT_FOUND', `No checkout for order ${JSON.stringify(orderId)}: a refund needs the order's completed payment.`);
  const amount = refundAmount(checkout, request.amount);

  const lockKey = `refund:${orderId}:${refundId}`;
  const lockOwner = randomId(12);
  if (!(await deps.store.claimLock(lockKey, lockOwner, refundLockTtlMs))) {
    throw new RefundRefusal('REFUND_IN_PROGRESS', `Refund ${refundId} is being sent by another call right now: read it in a moment (GET the payment), or repeat this call.`);
  }
  try {
    const { refund, resumed } = await writeRefund(deps, orderId, refundId, amount, reason, reasonToMatch);
    const resumable = refund.state === 'sending' || (refund.state === 'unknown' && !refund.payoutIdConflict);
    if (!resumable) return refundView(refund, checkout.currencyCode);
    return refundView(await postPayout(deps, orderId, checkout.currencyCode, refund, resumed), checkout.currencyCode);
  } finally {
    await deps.store.releaseLock(lockKey, lockOwner);
  }
}

/**
 * Finds the refund `refundId` (the same body, or a 409), or checks the rules and writes it under
 * the first pay-out order id the store gives this order. `resumed`: it existed already, so it may
 * have been posted before (a 409 is then ours).
 */
async function writeRefund(deps: RefundDeps, orderId: string, refundId: string, amount: string, reason: string | null, reasonToMatch: string | null | undefined): Promise<{ refund: RefundRecord; resumed: boolean }> {
  for (let skipped = 0; skipped < maxPayoutIdTries; skipped++) {
    let existing: RefundRecord | undefined;
    let written: RefundRecord | undefined;
    try {
      await updateCheckoutRecord(deps.store, orderId, (checkout) => {
        existing = checkout.refunds?.find((refund) => refund.refundId === refundId);
        if (existing) {
          if (!sameRefund(existing, amount, reasonToMatch)) {
            throw new RefundRefusal('REFUND_ID_REUSED', `refundId ${refundId} was already used for a refund of ${existing.amount} ${checkout.currencyCode}${existing.reason !== null ? ` (reason ${JSON.stringify(existing.reason)})` : ''}: use a new refundId for another refund.`);
          }
          return null;
        }
        checkRefundable(checkout, amount);
        const at = deps.now();
        const refunds = checkout.refunds ?? [];
        written = newRefundRecord(
          {
            refundId,
            payoutOrderId: payoutOrderId(orderId, refunds, skipped),
            amount,
            reason,
            // The number the service reported as paying (checkRefundable made sure there is one),
            // never the one typed on the page: the pay-out goes to it, and to no other.
            phoneNumber: checkout.payment!.reportedPhoneNumber!,
          },
          at,
        );
        return { ...checkout, refunds: [...refunds, written], retainUntil: Math.max(checkout.retainUntil, at + checkoutRetentionMs) };
      });
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      deps.log.info('pay-out order id taken by another order: the next one is tried', { orderId, payoutOrderId: written?.payoutOrderId, owner: error.taken?.owner });
      continue;
    }
    if (existing) return { refund: existing, resumed: true };
    return { refund: written!, resumed: false };
  }
  deps.log.error('refund not sent: every pay-out order id it could take belongs to another order; needs support', { orderId, refundId });
  throw new RefundRefusal('NO_PAYOUT_ID', `Refund ${refundId} was not sent: every pay-out order id it could take already belongs to another order in the store. Nothing was paid out; contact support.`);
}

type Answer =
  | { kind: 'answered'; state: RefundState; transactionId: string | null; newBalance: string | null; failureCategory: string | null; failureReason: string | null; status: string }
  | { kind: 'exists' }
  | { kind: 'unknown' }
  | { kind: 'not-ours' }
  /** Refused before anything was created (a 4xx): the refund failed, nothing was paid. */
  | { kind: 'refused'; code: string; reason: string };

async function postPayout(deps: RefundDeps, orderId: string, currencyCode: string, refund: RefundRecord, resumed: boolean): Promise<RefundRecord> {
  const request: PayOutRequest = {
    orderId: refund.payoutOrderId,
    amount: refund.amount,
    phoneNumber: refund.phoneNumber,
    currencyCode,
    webhookUrl: deps.webhookUrl,
  };
  const answer = await sendPayout(deps, request, resumed);
  if (answer.kind === 'unknown') {
    deps.log.error('refund left unknown: the pay-out answer was lost twice; repeat the refund (same refundId) or ask support whether the pay-out exists', { orderId, refundId: refund.refundId, payoutOrderId: refund.payoutOrderId });
  }
  if (answer.kind === 'not-ours') {
    deps.log.error('pay-out answered 409 for an order id this companion did not post: refund held as unknown; needs support', { orderId, refundId: refund.refundId, payoutOrderId: refund.payoutOrderId });
  }
  const { refund: after } = await changeRefund(deps, orderId, refund.refundId, (current) => {
    if (current.payoutOrderId !== refund.payoutOrderId) return null;
    switch (answer.kind) {
      case 'answered': {
        const next = { ...current, transactionId: answer.transactionId ?? current.transactionId, newBalance: answer.newBalance ?? current.newBalance };
        // A notification may already have settled it: never go back (§3).
        if (!refundMovesForward(current.state, answer.state)) return next;
        return answer.state === 'failed' ? { ...next, state: 'failed', failureCategory: answer.failureCategory, failureReason: answer.failureReason } : { ...next, state: answer.state };
      }
      case 'exists':
        return refundMovesForward(current.state, 'pending') ? { ...current, state: 'pending' } : null;
      case 'unknown':
        return refundMovesForward(current.state, 'unknown') ? { ...current, state: 'unknown' } : null;
      case 'not-ours':
        return { ...current, payoutIdConflict: true, state: refundMovesForward(current.state, 'unknown') ? 'unknown' : current.state };
      case 'refused':
        return refundMovesForward(current.state, 'failed') ? { ...current, state: 'failed', failureCategory: answer.code, failureReason: answer.reason } : null;
    }
  });
  return after ?? refund;
}

async function sendPayout(deps: RefundDeps, request: PayOutRequest, resumed: boolean): Promise<Answer> {
  try {
    // The refund's record fixes every field of its pay-out: a refund that existed (`resumed`) may
    // have posted this very request before, so a 409 to it is ours.
    const outcome = await postUnderRepostRule(() => deps.service.payOut(request), {
      postedBefore: resumed,
      onLostAnswer: (error, retried) => deps.log.warn('pay-out answer lost', { payoutOrderId: request.orderId, kind: error.kind, retried }),
    });
    if (outcome.kind !== 'answered') return { kind: outcome.kind };
    const data = outcome.answer;
    const state: RefundState = data.status === 'failed' ? 'failed' : data.status === 'completed' ? 'completed' : 'pending';
    if (state === 'failed') deps.log.warn('pay-out failed at once', { payoutOrderId: request.orderId, failureCategory: data.failureCategory });
    return {
      kind: 'answered',
      state,
      status: data.status,
      transactionId: data.transactionId ?? null,
      newBalance: typeof data.newBalance === 'number' ? amountFromNumber(data.newBalance) : null,
      failureCategory: data.failureCategory ?? null,
      failureReason: data.failureReason ?? null,
    };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // A 4xx: the service created nothing (§7), so nothing was paid out.
    deps.log.warn('pay-out refused', { payoutOrderId: request.orderId, kind: error.kind, code: error.code });
    return { kind: 'refused', code: error.code ?? error.kind.toUpperCase(), reason: error.message };
  }
}
