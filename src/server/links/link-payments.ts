/**
 * Paying through a link: each payment is an ordinary checkout the companion creates from the link
 * (order id `<linkId>-<t>-<n>`, model/link.ts `linkOrderId`, within the service's orderId rules, §2.3), and the link is claimed for
 * it right before its pay-in is posted (payments/pay-flow.ts `beforePayIn`), in one compare-and-set
 * of the link (stores/link-store.ts): a second payer on a single-use link is refused with
 * `LINK_USED` before any prompt is sent to their phone.
 *
 * A claim whose payment ended but whose link was never told (the process stopped between the
 * payment's write and the link's, payments/transitions.ts) is settled here from the checkout's own
 * record before a claim is refused, so a stop never keeps a link held or lets it be paid twice.
 */
import { blockingClaims, claimPayment, linkOrderId, nextCheckoutOf, settlePayment, type LinkRecord } from '../model/link.js';
import { PayerRefusal } from '../model/payer-refusal.js';
import { heldForSupport } from '../model/payment-view.js';
import type { CheckoutRecord } from '../model/records.js';
import type { CreatedCheckout } from '../payments/checkouts.js';
import { updateLink, type LinkStore } from '../stores/link-store.js';
import type { CheckoutStore } from '../stores/store.js';
import { linksOf } from './link-actions.js';

/** Creates a checkout, as the companion's `createCheckout` does, marked as the link's. */
export type CreateLinkCheckout = (order: { orderId: string; amount: string; currencyCode: string; returnUrl?: string; linkId: string }) => Promise<CreatedCheckout>;

/**
 * A new checkout of `amount` (already checked against the link) for a payer of the link, or null
 * when the link takes no payment now (unknown, closed, expired or used up: the page says so). Its
 * `returnUrl` is the link's, or `returnUrl` when the page is an app's (its own page in app mode,
 * where a wallet's approval page must bring the WebView back).
 */
export async function startLinkCheckout(
  deps: { store: CheckoutStore; now: () => number; createCheckout: CreateLinkCheckout },
  link: LinkRecord,
  amount: string,
  returnUrl: string | null = link.returnUrl,
): Promise<CreatedCheckout> {
  const { link: numbered } = await updateLink(linksOf(deps.store), link.linkId, (current) => nextCheckoutOf(current).link);
  if (!numbered) throw new PayerRefusal('TOKEN_INVALID', 'This payment link does not exist any more. Ask the shop for a new link.');
  // From the link as numbered, not as the page read it: the id may since name a link made again.
  const orderId = linkOrderId(numbered, numbered.checkoutsCreated);
  return deps.createCheckout({ orderId, amount, currencyCode: link.currencyCode, linkId: link.linkId, ...(returnUrl !== null ? { returnUrl } : {}) });
}

/** How a claim's payment stands, read from its checkout: ended (and how), or still able to be paid. */
function outcomeOf(checkout: CheckoutRecord | undefined, now: number): 'completed' | 'failed' | null {
  const payment = checkout?.payment;
  // Gone, or expired without a payment: nothing can be paid under it any more. A code never
  // given (needs-otp) created nothing at the service (§7), and its token has expired.
  if (!checkout || ((!payment || payment.state === 'needs-otp') && checkout.expiresAt <= now)) return 'failed';
  if (payment?.state === 'completed' && !heldForSupport(payment)) return 'completed';
  if (payment?.state === 'failed') return 'failed';
  return null;
}

/** Settles the claims that block `orderId` but whose payments have ended (a stop between two writes). */
async function settleEndedClaims(store: CheckoutStore, links: LinkStore, link: LinkRecord, orderId: string, now: number): Promise<boolean> {
  let settled = false;
  for (const claim of blockingClaims(link, orderId)) {
    const outcome = outcomeOf(await store.getByOrderId(claim.orderId), now);
    if (outcome === null) continue;
    const { changed } = await updateLink(links, link.linkId, (current) => settlePayment(current, claim.orderId, outcome, now));
    settled ||= changed;
  }
  return settled;
}

/**
 * Claims the link of `checkout` for its payment, before its pay-in is posted; throws the
 * {@link PayerRefusal} the payer's page shows when the link takes no payment. Returns the release
 * of the claim, for a pay-in that created nothing (refused, or never sent). Nothing for a checkout
 * that is not a link's.
 */
export async function claimLinkForPayIn(store: CheckoutStore, checkout: CheckoutRecord, now: () => number): Promise<(() => Promise<void>) | undefined> {
  if (checkout.linkId === undefined) return undefined;
  const linkId = checkout.linkId;
  const links = linksOf(store);
  for (let round = 0; round < 2; round++) {
    let refusal: string | null = null;
    let held = false;
    const { link } = await updateLink(links, linkId, (current) => {
      const outcome = claimPayment(current, checkout.orderId, checkout.amount, now());
      refusal = 'refusal' in outcome ? outcome.refusal : null;
      held = 'link' in outcome && outcome.link === current;
      return 'link' in outcome && !held ? outcome.link : null;
    });
    if (!link) throw new PayerRefusal('TOKEN_EXPIRED', 'This payment link does not exist any more. Ask the shop for a new link.');
    // A claim this order already held was kept by an earlier post whose payment may exist (its
    // answer lost): a refusal of this re-post does not prove otherwise, so only the payment's own
    // end frees it (settleLinkPayment). Only a claim made now is released with its refused post.
    if (refusal === null && held) return undefined;
    if (refusal === null) return async () => void (await updateLink(links, linkId, (current) => settlePayment(current, checkout.orderId, 'failed', now())));
    if (refusal === 'in-use' && round === 0 && (await settleEndedClaims(store, links, link, checkout.orderId, now()))) continue;
    if (refusal === 'in-use' || refusal === 'used-up') {
      throw new PayerRefusal('LINK_USED', 'This payment link was just used by someone else, so nothing was sent to your phone. Ask the shop for a new link.');
    }
    throw new PayerRefusal('TOKEN_EXPIRED', `This payment link is ${refusal}: nothing was sent to your phone. Ask the shop for a new link.`);
  }
}

/** Tells the link of `checkout` that its payment ended (payments/transitions.ts, after the payment's write). */
export async function settleLinkPayment(store: CheckoutStore, checkout: CheckoutRecord, now: number): Promise<void> {
  if (checkout.linkId === undefined || !store.links) return;
  const outcome = checkout.payment ? outcomeOf(checkout, now) : null;
  if (outcome === null) return;
  await updateLink(store.links, checkout.linkId, (current) => settlePayment(current, checkout.orderId, outcome, now));
}
