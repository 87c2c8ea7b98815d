/**
 * A payment link (issue 44): a page a merchant sends by WhatsApp or SMS, through which payers pay
 * ordinary checkouts the companion creates from it. The record every store keeps, and the pure
 * rules of its life: open, closed, expired or used up; a payment claimed before its pay-in is
 * posted, then settled completed (counted, a single-use link closed) or failed (the claim freed).
 *
 * A store writes a link only by compare-and-set on its `revision` (stores/link-store.ts
 * `updateLink`), so a claim decided here is one atomic store write, across processes.
 */

/** One payment through the link: its checkout's order id and where its claim stands. */
export interface LinkPayment {
  /** The checkout's order id, `<linkId>-<t>-<n>` ({@link linkOrderId}; its own attempts add `-aN`, payments/attempt-ids.ts). */
  orderId: string;
  /** The amount the payer pays (the link's fixed amount, or the one chosen within its bounds). */
  amount: string;
  /**
   * `claimed`: its pay-in may be in flight (it holds a single-use link); `completed`: paid;
   * `failed`: its payment failed, the claim is freed (the same checkout may claim again).
   */
  state: 'claimed' | 'completed' | 'failed';
  /** Epoch ms of the claim's last change. */
  at: number;
}

export interface LinkRecord {
  /** Over 128 random bits (17 bytes), base64url (23 characters, the first a letter or a digit): the link's URL is its only secret. */
  linkId: string;
  createdAt: number;
  currencyCode: string;
  /** What the payer pays for, shown on the link's page. */
  description: string;
  /** A fixed amount (decimal string, major unit), or null when the payer chooses within the bounds. */
  amount: string | null;
  /** The payer's bounds (decimal strings, both included), when `amount` is null. */
  minAmount: string | null;
  maxAmount: string | null;
  /** False (the default): closed by its first completed payment. */
  reusable: boolean;
  /** A reusable link's cap on completed payments (null: no cap). */
  maxPayments: number | null;
  /** Epoch ms after which no payment starts. */
  expiresAt: number;
  /** The merchant's page after an approval page (default: the companion's `returnUrl`). */
  returnUrl: string | null;
  /** Set when the merchant closed it, or by the completed payment that used it up. */
  closedAt: number | null;
  /** Completed payments through it. */
  completedPayments: number;
  /** Checkouts created from it so far: the next one's order id ends `-<checkoutsCreated + 1>` ({@link linkOrderId}). */
  checkoutsCreated: number;
  /** Payments claimed through it, oldest first. */
  payments: LinkPayment[];
  revision: number;
  /** Kept until then (its payments are kept a week after their last change: the link outlives them). */
  retainUntil: number;
}

/** A link is kept this long after its expiry, so that its payments' page and list still find it. */
export const linkRetentionAfterExpiryMs = 35 * 24 * 3600_000;

/** Where a link stands for a payer: only an `open` one takes a payment. */
export type LinkStanding = 'open' | 'closed' | 'expired' | 'used-up';

export function linkStanding(link: LinkRecord, now: number): LinkStanding {
  if (isUsedUp(link)) return 'used-up';
  if (link.closedAt !== null) return 'closed';
  if (now >= link.expiresAt) return 'expired';
  return 'open';
}

function isUsedUp(link: LinkRecord): boolean {
  if (!link.reusable) return link.completedPayments >= 1;
  return link.maxPayments !== null && link.completedPayments >= link.maxPayments;
}

/** Why a claim was refused: the link's standing, or `in-use` (another payer's payment holds it). */
export type ClaimRefusal = Exclude<LinkStanding, 'open'> | 'in-use';

/** The other payments that hold the link now: claimed and not this order's. */
export function blockingClaims(link: LinkRecord, orderId: string): LinkPayment[] {
  const claims = link.payments.filter((payment) => payment.state === 'claimed' && payment.orderId !== orderId);
  if (!link.reusable) return claims;
  // A reusable link is held only when the claims in flight could reach its cap.
  if (link.maxPayments === null || link.completedPayments + claims.length < link.maxPayments) return [];
  return claims;
}

/**
 * The link with `orderId`'s payment claimed, or why not. A claim already made by this order is
 * kept (a re-post of the same pay finds it). Decided on the record read, written by
 * compare-and-set: two payers racing on a single-use link cannot both win.
 */
export function claimPayment(link: LinkRecord, orderId: string, amount: string, now: number): { link: LinkRecord } | { refusal: ClaimRefusal } {
  const own = link.payments.find((payment) => payment.orderId === orderId);
  // This order's own claim first, before the link's standing: its pay-in may have been sent (an
  // answer lost, a code asked for), and a payment already started goes on whatever became of the
  // link since (closed, expired): its re-post reads or finishes that payment, it starts no other.
  if (own?.state === 'claimed') return { link };
  const standing = linkStanding(link, now);
  if (standing !== 'open') return { refusal: standing };
  if (own?.state === 'completed') return { refusal: 'used-up' };
  if (blockingClaims(link, orderId).length > 0) return { refusal: 'in-use' };
  const claim: LinkPayment = { orderId, amount, state: 'claimed', at: now };
  const payments = own ? link.payments.map((payment) => (payment.orderId === orderId ? claim : payment)) : [...link.payments, claim];
  return { link: { ...link, payments } };
}

/**
 * The link after `orderId`'s payment ended: a completed one is counted (and closes a link it used
 * up), a failed one frees its claim. Null when nothing changes (a notification applied twice).
 */
export function settlePayment(link: LinkRecord, orderId: string, outcome: 'completed' | 'failed', now: number): LinkRecord | null {
  const own = link.payments.find((payment) => payment.orderId === orderId);
  if (!own || own.state === 'completed' || own.state === outcome) return null;
  const payments = link.payments.map((payment) => (payment.orderId === orderId ? { ...payment, state: outcome, at: now } : payment));
  if (outcome === 'failed') return { ...link, payments };
  const counted = { ...link, payments, completedPayments: link.completedPayments + 1 };
  return isUsedUp(counted) && counted.closedAt === null ? { ...counted, closedAt: now } : counted;
}

/** The link closed by its merchant (null when already closed). */
export function closeLink(link: LinkRecord, now: number): LinkRecord | null {
  return link.closedAt === null ? { ...link, closedAt: now } : null;
}

/**
 * The order id of the link's `n`th checkout: `<linkId>-<t>-<n>`, `t` the link's creation time in
 * base 36. The service keeps an order id for ever (§2.3: a second post of it is a 409), while a
 * link is forgotten 35 days after its expiry and a link created again under the same
 * Idempotency-Key then gets the same id (links/link-actions.ts): its creation time is what keeps
 * its orders apart from the earlier link's, in the store and at the service.
 */
export function linkOrderId(link: Pick<LinkRecord, 'linkId' | 'createdAt'>, n: number): string {
  return `${link.linkId}-${link.createdAt.toString(36)}-${n}`;
}

/** Whether `orderId` is one of `link`'s checkouts (made so far), as {@link linkOrderId} names them. */
export function isLinkOrderOf(link: Pick<LinkRecord, 'linkId' | 'createdAt' | 'checkoutsCreated'>, orderId: string): boolean {
  const prefix = linkOrderId(link, 0).slice(0, -1);
  if (!orderId.startsWith(prefix)) return false;
  const n = orderId.slice(prefix.length);
  return /^[1-9][0-9]{0,15}$/.test(n) && Number(n) <= link.checkoutsCreated;
}

/** The link with the next checkout's number taken, and that checkout's order id. */
export function nextCheckoutOf(link: LinkRecord): { link: LinkRecord; orderId: string } {
  const n = link.checkoutsCreated + 1;
  return { link: { ...link, checkoutsCreated: n }, orderId: linkOrderId(link, n) };
}
