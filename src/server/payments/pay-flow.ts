/**
 * The pay-in, as §4.1's canonical protocol wants it:
 *
 * 1. post without `otp` and `redirectUrls` (unless the payer already typed a code);
 * 2. `422 OTP_REQUIRED`: nothing was created; ask the payer for the code, re-post the same orderId;
 * 3. `422 REDIRECT_URLS_REQUIRED`: nothing was created; re-post at once with our own return URLs;
 * 4. `409`: it exists; never invent a new orderId. It is ours only when we posted that exact
 *    request before and lost its answer (service-client/repost-rule.ts); otherwise someone else
 *    created it (another system posting with the same key, a store that lost our record): the
 *    payment is held as `unknown`, logged for support, never `pending` or `completed`, and no
 *    notification for that id is applied to it;
 * 5. a lost answer: re-post the same body once; if still unknown, say "checking" (a webhook or a
 *    later 409 decides). Never a second payment. While that outcome is unknown, only that very
 *    request may be posted again: another number or the wallet would meet the same order id's 409,
 *    and the service would collect from the first number what the record says the second paid.
 *
 * One pay-in in flight per checkout (the store's lock): a double click, Enter plus click, or a
 * second tab produce one upstream call. The amount is always the checkout's.
 *
 * The lock is a lease its holder renews (stores/lock-lease.ts, issue 45): a companion killed in the
 * middle of a pay frees it within seconds, not a minute. A holder paused past its lease cannot post
 * beside the one that took over: the write before the post is fenced on the payment as read under
 * the lock (nobody else wrote it meanwhile), and the lease is renewed right before the post (nobody
 * else holds it). Paused after that renewal, it may still post once the lock is taken over: the
 * other process then found this very request on the record (only it may be posted again, 5.), so
 * the order still gets one pay-in, and the paused one, seeing its lease gone, takes the 409 for that
 * process's post and writes nothing. A holder that died leaves its written request, `unknown`,
 * which the next pay of the same request posts again (its 409 is ours).
 */
import type { OperatorView, PaymentState, PaymentView, PayRequest } from '../../contract/companion.js';
import type { PayInRequest } from '../../contract/upstream/index.js';
import type { Logger } from '../log.js';
import {
  AmountOutOfRangeError,
  OtpRequiredError,
  RedirectUrlsRequiredError,
  ServiceError,
  ValidationError,
  postUnderRepostRule,
  postedRequestKey,
  type ServiceClient,
} from '../service-client/index.js';
import { checkAmount, type Discovery } from './discovery.js';
import { PayerRefusal, TryAgainShortly } from '../model/payer-refusal.js';
import type { CheckoutRecord, PaymentRecord } from '../model/records.js';
import { StoreConflictError, type CheckoutStore } from '../stores/store.js';
import { LinkBusyError } from '../stores/link-updates.js';
import { nextAttemptOrderIds } from './attempt-ids.js';
import { isFinal, movesForward, type Transitions } from './transitions.js';
import { approvalUnavailableFor, paymentView } from '../model/payment-view.js';
import { takeLock } from '../stores/lock-lease.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';
import { redactPhone } from '../../contract/phone.js';

export interface PayFlowDeps {
  service: ServiceClient;
  store: CheckoutStore;
  discovery: Discovery;
  transitions: Transitions;
  log: Logger;
  /** `<publicUrl>/webhook` */
  webhookUrl: string;
  /** `<publicUrl>/return/<returnId>` */
  returnBase: (checkout: CheckoutRecord) => string;
  metrics?: MetricsRecorder;
  /**
   * Runs before anything of an attempt is written or posted, and refuses it by throwing a
   * PayerRefusal: a payment link's claim (links/link-payments.ts `claimLinkForPayIn`).
   */
  beforePayIn?: (checkout: CheckoutRecord) => Promise<(() => Promise<void>) | undefined>;
}

type Outcome =
  | { kind: 'accepted'; redirect: boolean; transactionId: string | null }
  /** `lostBefore`: an earlier post of this request had a lost answer, which the 422 does not settle. */
  | { kind: 'needs-otp'; lostBefore: boolean }
  | { kind: 'exists'; redirect: boolean }
  | { kind: 'unknown' }
  /** A 409 for an order id we do not know we created. */
  | { kind: 'not-ours' };

/** States in which the payment is under way: a new pay call only reports it. */
const underWay: readonly PaymentState[] = ['pending', 'awaiting-redirect', 'redirect-ready'];
/** The lock's ttl on a store without `renewLock` (a store of the merchant's own); leased otherwise. */
const lockTtlMs = 60_000;

export async function payCheckout(deps: PayFlowDeps, checkoutAtStart: CheckoutRecord, body: PayRequest): Promise<PaymentView> {
  const orderId = checkoutAtStart.orderId;
  const lock = await takeLock(deps.store, `pay:${orderId}`, { fallbackTtlMs: lockTtlMs });
  if (!lock) return underWayElsewhere(deps, checkoutAtStart);
  try {
    const checkout = (await deps.store.getByOrderId(orderId)) ?? checkoutAtStart;
    const current = checkout.payment;
    // An attempt whose approval page was refused cannot be approved through us: another may start.
    const unapprovable = current ? approvalUnavailableFor(current) : false;
    if (current && ((underWay.includes(current.state) && !unapprovable) || current.state === 'completed')) return paymentView(checkout)!;
    if ((current?.state === 'failed' || unapprovable) && !paymentView(checkout)!.canRetry) return paymentView(checkout)!;
    // Someone else's transaction holds this attempt's order id: only support can settle it.
    if (current?.orderIdConflict) return paymentView(checkout)!;

    const lookup = await deps.discovery.lookup(checkout, body.phoneNumber, undefined);
    // Still waiting for the code on the same number and choice: another post without it would only
    // meet the same 422. A new number or the other operator is a new question for the service.
    const sameQuestion = lookup.phoneNumber === current?.phoneNumber && body.useWallet === current.useWallet;
    if (current?.state === 'needs-otp' && body.otp === undefined && sameQuestion) return paymentView(checkout)!;

    // A new attempt only after a verified final failure, under a new order id; otherwise the same
    // order id is re-posted (after a 422 or an unknown outcome nothing new may be invented, §7).
    // (An attempt whose approval page was refused is left to expire at the service, never re-posted.)
    const newAttempt = !!current && (current.state === 'failed' || unapprovable);
    const attempt = newAttempt ? current.attempt + 1 : current?.attempt ?? 1;
    // An earlier post of this order id whose outcome is unknown: only that request may go again.
    const unsettled = newAttempt || !current ? null : unsettledPost(checkout);
    const requestKey = (serviceOrderId: string) =>
      postedRequestKey({ orderId: serviceOrderId, amount: checkout.amount, currencyCode: checkout.currencyCode, phoneNumber: lookup.phoneNumber, operatorCode: body.useWallet ? 'wallet' : undefined });
    if (unsettled !== null && unsettled !== requestKey(current!.serviceOrderId)) {
      deps.log.warn('pay refused: another number or wallet choice while an earlier pay-in of this order has an unknown outcome', { orderId, serviceOrderId: current!.serviceOrderId });
      throw new PayerRefusal(
        'PAYMENT_IN_PROGRESS',
        `The payment sent to ${redactPhone(current!.phoneNumber)} for this order is still being checked: its outcome is not known yet, so it cannot be sent to another number or wallet. Its outcome will show here; if it fails, pay again with any number.`,
      );
    }
    if (body.useWallet && !lookup.wallet) throw new PayerRefusal('BAD_REQUEST', 'The wallet is not offered for this number. Choose the operator instead.');
    const operator = body.useWallet ? lookup.wallet : lookup.operator;
    if (!operator) throw new PayerRefusal('NO_OPERATOR', `No mobile money operator of this number takes payments in ${checkout.currencyCode}.`);
    // The lookup refuses only when no entry takes the amount: the chosen one must.
    checkAmount(checkout, operator);
    const releaseClaim = await beforePayIn(deps, checkout);

    const paymentUnder = (serviceOrderId: string): PaymentRecord => ({
      state: current?.state === 'needs-otp' || current?.state === 'unknown' ? current.state : 'unknown',
      attempt,
      serviceOrderId,
      phoneNumber: lookup.phoneNumber,
      useWallet: body.useWallet,
      operator: { code: operator.code, name: operator.name, logoUrl: operator.logoUrl, instructions: operator.instructions },
      workflow: current?.attempt === attempt ? current.workflow : null,
      authorizationUrl: null,
      returned: false,
      amountMismatch: false,
      previewWorkflow: current?.attempt === attempt ? current.previewWorkflow ?? null : null,
      lastServiceStatus: null,
      transactionId: current?.serviceOrderId === serviceOrderId ? current.transactionId : null,
      // Written before the post: after a crash or a lost answer, this is what may have been created.
      postedRequest: requestKey(serviceOrderId),
      updatedAt: 0,
    });
    // Written before the call: a webhook can arrive before the answer, and must find the attempt.
    const candidates = newAttempt ? nextAttemptOrderIds(orderId, current.serviceOrderId) : [current?.serviceOrderId ?? orderId];
    const base = await claimServiceOrderId(deps, orderId, current ?? null, candidates.map(paymentUnder));
    // Another process wrote this payment since it was read: it took the lock over (ours lapsed).
    if (!base) return underWayElsewhere(deps, checkoutAtStart);
    const serviceOrderId = base.serviceOrderId;
    // The one case where a 409 is ours: we posted this very request before and lost the answer
    // (the outcome stayed unknown, or the process stopped before the answer was written).
    const postedBefore = current?.serviceOrderId === serviceOrderId && unsettled === requestKey(serviceOrderId);

    const request: PayInRequest = {
      orderId: serviceOrderId,
      amount: checkout.amount,
      phoneNumber: lookup.phoneNumber,
      currencyCode: checkout.currencyCode,
      webhookUrl: deps.webhookUrl,
      ...(body.useWallet ? { operatorCode: 'wallet' as const } : {}),
      // §2.3: the code exactly as typed, never checked here.
      ...(body.otp !== undefined ? { otp: body.otp } : {}),
    };

    // Right before the post: the lease is still ours (renewed now), so no one else posts beside it.
    if (!(await lock.stillHeld())) {
      deps.log.warn('pay-in not sent: this process lost the pay lock (paused past its lease); the process that took it over sends it', { orderId, serviceOrderId });
      return underWayElsewhere(deps, checkoutAtStart);
    }
    let outcome: Outcome;
    try {
      outcome = await postPayIn(deps, request, checkout, operator, postedBefore);
    } catch (error) {
      // Nothing was created: put the payment back as it was, so the payer can correct and retry.
      await deps.transitions.update(orderId, (payment) => (payment?.serviceOrderId === serviceOrderId && payment.lastServiceStatus === null ? current ?? null : null), { silent: true });
      // The payer hears why the pay-in failed; a claim left held is settled by the payment's end.
      await releaseClaim?.().catch((releaseError: unknown) => deps.log.warn('payment link claim not freed after a pay-in that created nothing', { orderId, error: releaseError }));
      throw error;
    }

    if (outcome.kind === 'not-ours') {
      // Paused past the lease between its renewal and this post: the process that took the lock over
      // found this very request on the record and may have posted it; the 409 is then that one's,
      // and the record, which that process keeps, says what happened. Nothing is written here.
      if (!(await lock.stillHeld())) return underWayElsewhere(deps, checkoutAtStart);
      return holdForSupport(deps, orderId, serviceOrderId, checkout);
    }
    const redirect = outcome.kind === 'accepted' || outcome.kind === 'exists' ? outcome.redirect : false;
    const state: PaymentState =
      outcome.kind === 'needs-otp' ? 'needs-otp' : outcome.kind === 'unknown' ? 'unknown' : redirect ? 'awaiting-redirect' : 'pending';
    const workflow = outcome.kind === 'needs-otp' ? 'pre_authorized' : redirect ? 'redirect_url' : base.previewWorkflow ?? operator.workflowHint;
    const { checkout: after } = await deps.transitions.update(orderId, (payment) => {
      if (!payment || payment.serviceOrderId !== serviceOrderId) return null;
      // A webhook may already have moved it further: never go back (§3).
      if (payment.lastServiceStatus !== null && !movesForward(payment.state, state)) return null;
      if (isFinal(payment.state)) return null;
      const transactionId = outcome.kind === 'accepted' ? outcome.transactionId : payment.transactionId;
      // A 422 created nothing (§7): the payer may then change the number. After an earlier lost
      // answer it proves nothing about that post, which stays unsettled.
      const postedRequest = outcome.kind === 'needs-otp' && !outcome.lostBefore ? null : payment.postedRequest ?? null;
      return { ...payment, state, workflow, transactionId, postedRequest };
    });
    if (current?.attempt !== attempt) deps.metrics?.paymentStarted(operator.name);
    return paymentView(after ?? checkout)!;
  } finally {
    await lock.release();
  }
}

/** Seconds a payer waits before pressing Pay again when their payment link was too busy to claim. */
const linkBusyRetryAfterSeconds = 2;

/**
 * `deps.beforePayIn`, with a link that other processes kept writing (stores/link-updates.ts) told as
 * what it is: nothing was sent, try again. Never "the payment service cannot be reached", which the
 * service answering every call would make untrue.
 */
async function beforePayIn(deps: PayFlowDeps, checkout: CheckoutRecord): Promise<(() => Promise<void>) | undefined> {
  try {
    return await deps.beforePayIn?.(checkout);
  } catch (error) {
    if (!(error instanceof LinkBusyError)) throw error;
    deps.log.warn('pay-in not sent: its payment link was written by other processes at every attempt; the payer is told to try again', { orderId: checkout.orderId });
    throw new TryAgainShortly('Many people are paying through this link right now, and nothing was sent to your phone yet: press Pay again in a moment.', linkBusyRetryAfterSeconds);
  }
}

/**
 * Another call holds this checkout's pay lock: its payment if there is one to show, else the
 * refusal that tells the page to wait (the element re-posts the same request by itself).
 */
async function underWayElsewhere(deps: PayFlowDeps, checkoutAtStart: CheckoutRecord): Promise<PaymentView> {
  const view = paymentView((await deps.store.getByOrderId(checkoutAtStart.orderId)) ?? checkoutAtStart);
  if (view && view.state !== 'needs-otp') return view;
  throw new PayerRefusal('PAYMENT_IN_PROGRESS', 'This payment is already being sent. Wait a moment.');
}

/**
 * Writes the first of `payments` whose service order id the store gives this order, and returns it.
 * The store decides atomically, across processes: an id another order's attempt holds, or that is
 * another checkout's order id (a merchant's order `X-a2`), is refused and the next one is tried.
 *
 * Fenced: written only while the payment is still `readUnderLock` (compare-and-set). Null when
 * another writer changed it meanwhile: a process that took the lock over, or a notification; the
 * caller then posts nothing.
 */
async function claimServiceOrderId(deps: PayFlowDeps, orderId: string, readUnderLock: PaymentRecord | null, payments: PaymentRecord[]): Promise<PaymentRecord | null> {
  for (const payment of payments) {
    try {
      const { changed } = await deps.transitions.update(orderId, (latest) => (sameJson(latest ?? null, readUnderLock) ? payment : null), { silent: true });
      if (!changed) return null;
      return payment;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      deps.log.info('attempt id taken by another order: the next one is tried', { orderId, serviceOrderId: payment.serviceOrderId, owner: error.taken?.owner });
    }
  }
  // Nothing was written and nothing posted, so nothing is lost; the payer is told, support is.
  deps.log.error('pay-in not sent: every order id it could take already belongs to another order in the store; needs support', {
    orderId,
    first: payments[0]?.serviceOrderId,
    tried: payments.length,
  });
  throw new PayerRefusal('INTERNAL', 'This payment cannot be sent for this order. Nothing was sent to the payment service: contact the shop with your order reference.');
}

/** Both read from the one store, so one record serialises the same way (no node:util: the handler runs on any runtime). */
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A 409 we did not cause: the transaction under this order id is someone else's. The payment is
 * held as `unknown` with the conflict flag (set whatever happened meanwhile), so nothing for that
 * id is applied to this order any more and nothing is re-posted.
 */
async function holdForSupport(deps: PayFlowDeps, orderId: string, serviceOrderId: string, checkout: CheckoutRecord): Promise<PaymentView> {
  const { checkout: after } = await deps.transitions.update(orderId, (payment) => {
    if (!payment || payment.serviceOrderId !== serviceOrderId || payment.orderIdConflict) return null;
    return { ...payment, orderIdConflict: true, state: isFinal(payment.state) ? payment.state : 'unknown' };
  });
  const applied = after?.payment?.lastServiceStatus ?? null;
  deps.log.error('pay-in answered 409 for an order id this companion did not create: held as unknown, never reported as paid; needs support', {
    orderId,
    serviceOrderId,
    // A notification that came between our post and its 409 can only be the other transaction's.
    ...(applied !== null ? { appliedBeforeThe409: applied } : {}),
  });
  return paymentView(after ?? checkout)!;
}

/**
 * The request an earlier post of this attempt sent and never learned the outcome of, as a
 * {@link postedRequestKey}, or null when none is unsettled. A record written before `postedRequest`
 * existed posted what it holds, in state `unknown`.
 */
function unsettledPost(checkout: CheckoutRecord): string | null {
  const payment = checkout.payment;
  if (!payment || isFinal(payment.state) || underWay.includes(payment.state)) return null;
  if (payment.postedRequest !== undefined) return payment.postedRequest;
  if (payment.state !== 'unknown') return null;
  return postedRequestKey({
    orderId: payment.serviceOrderId,
    amount: checkout.amount,
    currencyCode: checkout.currencyCode,
    phoneNumber: payment.phoneNumber,
    operatorCode: payment.useWallet ? 'wallet' : undefined,
  });
}

async function postPayIn(deps: PayFlowDeps, first: PayInRequest, checkout: CheckoutRecord, operator: OperatorView, postedBefore: boolean): Promise<Outcome> {
  let request = first;
  // A lost answer before a 422's re-post still counts: the lost post may have created it.
  let lost = false;
  for (;;) {
    try {
      const outcome = await postUnderRepostRule(() => deps.service.payIn(request), {
        postedBefore: postedBefore || lost,
        onLostAnswer: (error, retried) => {
          lost = true;
          deps.log.warn('pay-in answer lost', { orderId: request.orderId, kind: error.kind, retried });
        },
      });
      const redirect = request.redirectUrls !== undefined;
      switch (outcome.kind) {
        case 'answered':
          return { kind: 'accepted', redirect, transactionId: outcome.answer.transactionId ?? null };
        case 'exists':
          return { kind: 'exists', redirect };
        case 'unknown':
        case 'not-ours':
          return { kind: outcome.kind };
      }
    } catch (error) {
      if (error instanceof OtpRequiredError) return { kind: 'needs-otp', lostBefore: postedBefore || lost };
      if (error instanceof RedirectUrlsRequiredError && request.redirectUrls === undefined) {
        // Our own return route, never a URL from the browser. Nothing was created: same orderId.
        const base = deps.returnBase(checkout);
        request = { ...request, redirectUrls: { success: `${base}?outcome=success`, failure: `${base}?outcome=failure` } };
        continue;
      }
      if (error instanceof AmountOutOfRangeError) {
        // §2.1: the refusal is authoritative, the published bounds only indicative.
        throw new PayerRefusal('AMOUNT_OUT_OF_RANGE', `${operator.name} does not accept ${checkout.amount} ${checkout.currencyCode} for this number (published bounds: ${operator.minAmount} to ${operator.maxAmount ?? 'no limit'}). Try another operator or number.`, {
          min: operator.minAmount,
          max: operator.maxAmount,
          currencyCode: checkout.currencyCode,
        });
      }
      if (error instanceof ValidationError) {
        if (request.otp !== undefined) throw new PayerRefusal('OTP_REFUSED', 'The operator refused this code. Generate a new code and try again.');
        deps.log.warn('pay-in refused', { orderId: request.orderId, code: error.code, upstream: error.upstreamMessage });
        throw new PayerRefusal('BAD_REQUEST', 'The payment service refused this payment. Check the number, or try another one.');
      }
      deps.log.error('pay-in failed', { orderId: request.orderId, kind: error instanceof ServiceError ? error.kind : 'unexpected', error });
      throw new PayerRefusal('SERVICE_UNAVAILABLE', 'The payment service cannot be reached right now. Nothing was charged; try again in a moment.');
    }
  }
}
