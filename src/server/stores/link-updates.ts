/**
 * A link's changes, written together (issue 55, item 3). Every change of a link is a pure function
 * of its record (model/link.ts), so the changes one process asks for a link at the same moment are
 * applied in turn to one read of it and written in one compare-and-set: 200 payers pressing a
 * promotion's link at once are a handful of writes, where each used to read, lose the
 * compare-and-set to the others, and read again, 50 times, then fail ("too much contention": a `500`
 * on the link's page, a payer told the payment service was down, a completed payment never counted).
 *
 * Across processes the compare-and-set still decides: a batch that lost to another process's write
 * is applied again to the record that write left, with the changes that queued meanwhile. A batch
 * loses only while another process writes the same link in between its read and its write, so it
 * comes through within a few rounds; past {@link maxRounds} its callers get a {@link LinkBusyError},
 * which the routes answer with "try again" and `Retry-After`, and nothing is half-written.
 */
import type { LinkRecord } from '../model/link.js';

/** What a link's writes need of its store (stores/link-store.ts `LinkStore`, which re-exports this module). */
type LinkWrites = {
  getLink(linkId: string): Promise<LinkRecord | undefined>;
  compareAndSetLink(linkId: string, expectedRevision: number, next: LinkRecord): Promise<boolean>;
};

/** A link's write lost to other processes' writes this many times in a row: its callers are told to come back. */
export class LinkBusyError extends Error {
  override name = 'LinkBusyError';
  constructor(readonly linkId: string) {
    super(`payment link ${linkId} is written by other processes at every attempt: its change was not made; try again in a moment`);
  }
}

/** What a caller of `updateLink` gets: whether its change was written, and the link as its change left it. */
export interface LinkUpdate {
  changed: boolean;
  link: LinkRecord | undefined;
}

type Change = (current: LinkRecord) => LinkRecord | null;

interface Waiting {
  change: Change;
  resolve: (update: LinkUpdate) => void;
  reject: (error: unknown) => void;
}

/** A link's changes not yet taken into a write, and whether a write of it is under way in this process. */
interface LinkQueue {
  waiting: Waiting[];
  writing: boolean;
}

/** Lost compare-and-sets in a row before a batch's callers get a {@link LinkBusyError}. */
export const maxRounds = 50;

/** Per store object (a guarded store wraps its links once), per link id. */
const queues = new WeakMap<LinkWrites, Map<string, LinkQueue>>();

/**
 * Applies `change` to the link atomically, together with the other changes this process asks for the
 * same link meanwhile (see the module's comment). `change` returns null to leave the link as it is;
 * it may run more than once (again after a lost write), and the last run is the one written. Throws
 * what the store throws, what `change` throws (for that caller only), or a {@link LinkBusyError}.
 */
export function updateLink(links: LinkWrites, linkId: string, change: Change): Promise<LinkUpdate> {
  let perLink = queues.get(links);
  if (!perLink) queues.set(links, (perLink = new Map()));
  let queue = perLink.get(linkId);
  if (!queue) perLink.set(linkId, (queue = { waiting: [], writing: false }));
  const asked = new Promise<LinkUpdate>((resolve, reject) => queue.waiting.push({ change, resolve, reject }));
  if (!queue.writing) void writeQueued(links, linkId, queue, perLink);
  return asked;
}

async function writeQueued(links: LinkWrites, linkId: string, queue: LinkQueue, perLink: Map<string, LinkQueue>): Promise<void> {
  queue.writing = true;
  try {
    while (queue.waiting.length > 0) await writeBatch(links, linkId, queue);
  } finally {
    queue.writing = false;
    perLink.delete(linkId);
  }
}

/** One change's outcome in a round: the record after it, or what it threw. */
type Applied = { changed: boolean; after: LinkRecord } | { error: unknown };

async function writeBatch(links: LinkWrites, linkId: string, queue: LinkQueue): Promise<void> {
  // Taken now: what is asked while this batch is read and written waits for the next one.
  const batch = queue.waiting.splice(0);
  try {
    for (let round = 0; ; round++) {
      const current = await links.getLink(linkId);
      if (!current) return batch.forEach((each) => each.resolve({ changed: false, link: undefined }));
      let record = current;
      const applied: Applied[] = batch.map((each) => {
        try {
          const proposed = each.change(record);
          if (proposed) record = proposed;
          return { changed: proposed !== null, after: record };
        } catch (error) {
          return { error };
        }
      });
      const written = record === current ? current : { ...record, revision: current.revision + 1 };
      if (written === current || (await links.compareAndSetLink(linkId, current.revision, written))) {
        batch.forEach((each, index) => {
          const outcome = applied[index]!;
          if ('error' in outcome) each.reject(outcome.error);
          else each.resolve({ changed: outcome.changed, link: { ...outcome.after, revision: written.revision } });
        });
        return;
      }
      // Another process wrote the link first: again on its record, with what was asked meanwhile.
      if (round + 1 >= maxRounds) throw new LinkBusyError(linkId);
      batch.push(...queue.waiting.splice(0));
      // A pause of a few ms, different in each process, so two batches do not keep meeting.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + round, 20)));
    }
  } catch (error) {
    batch.forEach((each) => each.reject(error));
  }
}
