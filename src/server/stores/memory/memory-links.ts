/**
 * The memory store's payment links (stores/link-store.ts): one process's Map of links kept deeply
 * frozen and handed out as they are, as the records are (frozen-data.ts), and an array ordered newest first (the
 * index a page is read from: found by binary search, not by sorting every link). Each method runs
 * without an `await` between its read and its write: atomic in one JavaScript process.
 */
import type { LinkRecord } from '../../model/link.js';
import { freezeJsonData } from './frozen-data.js';
import { isAfterCursor, newestLinkFirst, type LinkStore } from '../link-store.js';

export interface MemoryLinks extends LinkStore {
  /** Drops the links past their `retainUntil`. */
  sweep(at: number): void;
}

export function createMemoryLinks(now: () => number): MemoryLinks {
  const links = new Map<string, LinkRecord>();
  /** Every stored link, newest first (model order of link-store.ts `newestLinkFirst`). */
  const newestFirst: LinkRecord[] = [];
  const live = (linkId: string): LinkRecord | undefined => {
    const link = links.get(linkId);
    return link !== undefined && link.retainUntil > now() ? link : undefined;
  };
  /** The first index whose link comes after `link` in newest-first order. */
  const positionOf = (link: Pick<LinkRecord, 'createdAt' | 'linkId'>): number => {
    let low = 0;
    let high = newestFirst.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (newestLinkFirst(newestFirst[middle]!, link as LinkRecord) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const remove = (linkId: string) => {
    const index = newestFirst.findIndex((link) => link.linkId === linkId);
    if (index >= 0) newestFirst.splice(index, 1);
    links.delete(linkId);
  };

  return {
    async createLinkIfAbsent(link) {
      const existing = live(link.linkId);
      if (existing) return { created: false, link: existing };
      if (links.has(link.linkId)) remove(link.linkId);
      links.set(link.linkId, freezeJsonData(link, 'the link'));
      newestFirst.splice(positionOf(link), 0, { createdAt: link.createdAt, linkId: link.linkId } as LinkRecord);
      return { created: true, link };
    },
    async getLink(linkId) {
      return live(linkId);
    },
    async compareAndSetLink(linkId, expectedRevision, next) {
      if (next.linkId !== linkId) throw new TypeError(`compareAndSetLink(${linkId}) was given link ${next.linkId}`);
      const current = live(linkId);
      if (!current || current.revision !== expectedRevision) return false;
      links.set(linkId, freezeJsonData({ ...next, createdAt: current.createdAt }, 'the link'));
      return true;
    },
    async listLinks(page) {
      const found: LinkRecord[] = [];
      const start = page.before ? positionOf(page.before) : 0;
      for (let index = start; index < newestFirst.length && found.length < page.limit; index++) {
        const entry = newestFirst[index]!;
        if (!isAfterCursor(entry, page.before)) continue;
        const link = live(entry.linkId);
        if (link) found.push(link);
      }
      return found;
    },
    sweep(at) {
      for (const [linkId, link] of links) if (link.retainUntil <= at) remove(linkId);
    },
  };
}
