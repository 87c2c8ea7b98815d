/**
 * Where a store keeps payment links (model/link.ts; issue 44), beside its checkouts: `links` on a
 * {@link CheckoutStore}. Every shipped engine has one (memory, file, Redis, PostgreSQL); a store of
 * your own may leave it out, and then the companion offers no links.
 *
 * A link changes only by compare-and-set on its `revision`, which is what makes a single-use link's
 * claim one atomic write across processes: two payers racing both read revision N, one write of
 * N + 1 wins, the other re-reads and finds the link held. The changes one process asks for a link
 * at once are written together (`updateLink`, link-updates.ts), so a burst of payers on one link is
 * a few writes, not a race of hundreds.
 */
import type { LinkRecord } from '../model/link.js';

/** A page of links, newest first: those created before the cursor when given. */
export interface LinksPage {
  /** The last link of the previous page: this page starts right after it. */
  before?: { createdAt: number; linkId: string };
  /** At most this many. */
  limit: number;
}

export interface LinkStore {
  /** Stores `link` unless one with its `linkId` is live; returns the stored one either way (atomic). */
  createLinkIfAbsent(link: LinkRecord): Promise<{ created: boolean; link: LinkRecord }>;
  /** The live link (its `retainUntil` not passed), or undefined. */
  getLink(linkId: string): Promise<LinkRecord | undefined>;
  /** Replaces the link if its revision is still `expectedRevision`; false when another writer came first. */
  compareAndSetLink(linkId: string, expectedRevision: number, next: LinkRecord): Promise<boolean>;
  /**
   * Live links ordered by (`createdAt`, `linkId`), the newest first, read from an index on the
   * creation time, so a page reads a page of records and never every link.
   */
  listLinks(page: LinksPage): Promise<LinkRecord[]>;
}

export { LinkBusyError, updateLink, type LinkUpdate } from './link-updates.js';

/** Newest first: (createdAt, linkId) descending, the order every engine's index gives. */
export function newestLinkFirst(a: LinkRecord, b: LinkRecord): number {
  return b.createdAt - a.createdAt || (a.linkId < b.linkId ? 1 : a.linkId > b.linkId ? -1 : 0);
}

/** True when `link` comes after the cursor in newest-first order. */
export function isAfterCursor(link: LinkRecord, before: LinksPage['before']): boolean {
  if (!before) return true;
  return link.createdAt < before.createdAt || (link.createdAt === before.createdAt && link.linkId < before.linkId);
}
