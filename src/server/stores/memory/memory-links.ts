/**
 * The memory store's payment links (stores/link-store.ts): one process's Map, kept as JSON text so
 * a caller cannot change a stored link by mutating a result, and an array ordered newest first (the
 * index a page is read from: found by binary search, not by sorting every link). Each method runs
 * without an `await` between its read and its write: atomic in one JavaScript process.
 */
import type { LinkRecord } from '../../model/link.js';
import { isAfterCursor, newestLinkFirst, type LinkStore } from '../link-store.js';

export interface MemoryLinks extends LinkStore {
  /** Drops the links past their `retainUntil`. */
  sweep(at: number): void;
}

export function createMemoryLinks(now: () => number): MemoryLinks {
  const texts = new Map<string, string>();
  /** Every stored link, newest first (model order of link-store.ts `newestLinkFirst`). */
  const newestFirst: LinkRecord[] = [];
  const live = (linkId: string): LinkRecord | undefined => {
    const text = texts.get(linkId);
    if (text === undefined) return undefined;
    const link = JSON.parse(text) as LinkRecord;
    return link.retainUntil > now() ? link : undefined;
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
    texts.delete(linkId);
  };

  return {
    async createLinkIfAbsent(link) {
      const existing = live(link.linkId);
      if (existing) return { created: false, link: existing };
      if (texts.has(link.linkId)) remove(link.linkId);
      const text = JSON.stringify(link);
      texts.set(link.linkId, text);
      newestFirst.splice(positionOf(link), 0, { createdAt: link.createdAt, linkId: link.linkId } as LinkRecord);
      return { created: true, link: JSON.parse(text) as LinkRecord };
    },
    async getLink(linkId) {
      return live(linkId);
    },
    async compareAndSetLink(linkId, expectedRevision, next) {
      if (next.linkId !== linkId) throw new TypeError(`compareAndSetLink(${linkId}) was given link ${next.linkId}`);
      const current = live(linkId);
      if (!current || current.revision !== expectedRevision) return false;
      texts.set(linkId, JSON.stringify({ ...next, createdAt: current.createdAt }));
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
      for (const [linkId, text] of texts) if ((JSON.parse(text) as LinkRecord).retainUntil <= at) remove(linkId);
    },
  };
}
