/**
 * The merchant's actions on payment links (the server API's, the console's and the CLI's): create
 * (idempotent on the caller's key), read with the payments made through it, list newest first a
 * page at a time, close. What a link looks like to the merchant is {@link LinkView}.
 */
import type { PaymentState } from '../../contract/companion.js';
import { closeLink as closed, linkStanding, type LinkRecord, type LinkStanding } from '../model/link.js';
import type { Discovery } from '../payments/discovery.js';
import { updateLink, type LinkStore } from '../stores/link-store.js';
import type { CheckoutStore } from '../stores/store.js';
import { base64url, randomId } from '../tokens.js';
import { LinkError, linkFromRequest, type LinkRequest } from './link-rules.js';

/** A link as the merchant reads it: the record's terms, its page's URL, where it stands, times in ISO 8601. */
export type LinkView = Pick<
  LinkRecord,
  'linkId' | 'currencyCode' | 'description' | 'amount' | 'minAmount' | 'maxAmount' | 'reusable' | 'maxPayments' | 'completedPayments' | 'returnUrl'
> & {
  /** The page to send the payer (WhatsApp, SMS, a QR code). */
  url: string;
  state: LinkStanding;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
};

export interface LinkPaymentView {
  orderId: string;
  amount: string;
  /** The payment's state, as `GET /payments/{orderId}` says it. */
  state: PaymentState;
  updatedAt: string;
}

export interface LinkActionDeps {
  store: CheckoutStore;
  now: () => number;
  /** The companion's public base URL: a link's page is `<base>/l/<linkId>`. */
  base: string;
  /** Keys the ids of links created with an idempotency key (the server secret): without it they are random. */
  idKeySecret?: string;
  discovery: Pick<Discovery, 'currencyFacts'>;
  defaultReturnUrl: string | null;
}

/** Where a link's page is. */
export const linkUrl = (base: string, linkId: string) => `${base}/l/${linkId}`;

export function linkView(link: LinkRecord, base: string, now: number): LinkView {
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  return {
    linkId: link.linkId,
    url: linkUrl(base, link.linkId),
    state: linkStanding(link, now),
    currencyCode: link.currencyCode,
    description: link.description,
    amount: link.amount,
    minAmount: link.minAmount,
    maxAmount: link.maxAmount,
    reusable: link.reusable,
    maxPayments: link.maxPayments,
    completedPayments: link.completedPayments,
    returnUrl: link.returnUrl,
    createdAt: iso(link.createdAt)!,
    expiresAt: iso(link.expiresAt)!,
    closedAt: iso(link.closedAt),
  };
}

/** The store's links, or the sentence saying why there are none. */
export function linksOf(store: CheckoutStore): LinkStore {
  if (!store.links) throw new LinkError('LINKS_UNAVAILABLE', 'This store keeps no payment links (a store of your own without `links`): use one of the shipped stores (file, Redis, PostgreSQL) to create links.');
  return store.links;
}

/**
 * The id of a link created with an idempotency key: an HMAC of the key under the server secret,
 * 136 bits, so the same key finds the same link in every process with no index of keys, and no
 * one without the secret can derive a link's id from a key.
 */
async function linkIdForKey(secret: string, key: string): Promise<string> {
  const hmacKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  for (let round = 0; ; round++) {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(`payment-link:${round}:${key}`)));
    const id = base64url(mac.subarray(0, 17));
    if (startsPlainly(id)) return id;
  }
}

/**
 * An id starting with a letter or a digit: one starting with "-" would be written with an
 * apostrophe in the export's cells (payments/csv-text.ts neutralises what a spreadsheet would run
 * as a formula), and reads badly at the end of a URL in a chat. 134 bits of chance remain (17 random bytes).
 */
const startsPlainly = (id: string) => /^[A-Za-z0-9]/.test(id);

function randomLinkId(): string {
  for (;;) {
    const id = randomId(17);
    if (startsPlainly(id)) return id;
  }
}

/** The fields a request with the same idempotency key must repeat (the expiry only when it was given). */
function sameRequest(stored: LinkRecord, asked: LinkRecord, expiryGiven: boolean): boolean {
  const fields = ['currencyCode', 'description', 'amount', 'minAmount', 'maxAmount', 'reusable', 'maxPayments', 'returnUrl'] as const;
  return fields.every((field) => stored[field] === asked[field]) && (!expiryGiven || stored.expiresAt === asked.expiresAt);
}

export function linkActions(deps: LinkActionDeps) {
  const { store, now, base } = deps;
  const view = (link: LinkRecord) => linkView(link, base, now());
  const found = async (linkId: string) => {
    const link = await linksOf(store).getLink(linkId);
    if (!link) throw new LinkError('LINK_NOT_FOUND', `No payment link ${JSON.stringify(linkId)}: check the id (a link is forgotten 35 days after its expiry).`);
    return link;
  };

  return {
    async createLink(request: LinkRequest, idempotencyKey?: string): Promise<{ created: boolean; link: LinkView }> {
      const links = linksOf(store);
      if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
        throw new LinkError('INVALID_LINK', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters (a UUID is a good one).');
      }
      const keyed = idempotencyKey !== undefined && deps.idKeySecret !== undefined;
      const linkId = keyed ? await linkIdForKey(deps.idKeySecret!, idempotencyKey!) : randomLinkId();
      const facts = await deps.discovery.currencyFacts(typeof request.currencyCode === 'string' ? request.currencyCode : '');
      const asked = linkFromRequest(request, { linkId, now: now(), facts, defaultReturnUrl: deps.defaultReturnUrl });
      const { created, link } = await links.createLinkIfAbsent(asked);
      if (!created && !sameRequest(link, asked, request.expiresAt !== undefined)) {
        throw new LinkError('LINK_CONFLICT', 'This Idempotency-Key already created a link with other fields: use a new key for a new link (the key makes a retry safe, it does not change a link).');
      }
      return { created, link: view(link) };
    },

    async getLink(linkId: string): Promise<LinkView & { payments: LinkPaymentView[] }> {
      const link = await found(linkId);
      const payments: LinkPaymentView[] = [];
      for (const claim of link.payments) {
        const checkout = await store.getByOrderId(claim.orderId);
        if (!checkout?.payment) continue;
        payments.push({ orderId: claim.orderId, amount: claim.amount, state: checkout.payment.state, updatedAt: new Date(checkout.payment.updatedAt).toISOString() });
      }
      return { ...view(link), payments };
    },

    async listLinks(query: { limit?: number; before?: string }): Promise<{ links: LinkView[]; next: string | null }> {
      const limit = query.limit ?? 50;
      const before = query.before === undefined ? undefined : parseCursor(query.before);
      const page = await linksOf(store).listLinks({ limit, ...(before ? { before } : {}) });
      const last = page[page.length - 1];
      return { links: page.map(view), next: page.length === limit && last ? `${last.createdAt}.${last.linkId}` : null };
    },

    async closeLink(linkId: string): Promise<LinkView> {
      await found(linkId);
      const { link } = await updateLink(linksOf(store), linkId, (current) => closed(current, now()));
      return view(link!);
    },
  };
}

/** `next` of the previous page: `<createdAt>.<linkId>`. */
function parseCursor(text: string): { createdAt: number; linkId: string } {
  const match = /^(\d{1,16})\.([\w-]{1,64})$/.exec(text);
  if (!match) throw new LinkError('INVALID_LINK', 'before must be the `next` value of the previous page, as it was given.');
  return { createdAt: Number(match[1]), linkId: match[2]! };
}

export type LinkActions = ReturnType<typeof linkActions>;
