/**
 * Writes grouped while one is under way: the first item starts a write at once; the items that come
 * while it runs wait for it to end and then go in together, as the next write (up to `most` per
 * write). One round trip and one commit for many, with no timer: an idle store writes at once, a
 * busy one in batches as large as its backlog. Each item's promise settles with its own result once
 * its batch is written, or with the write's error.
 *
 * Options: `keyOf`: a batch holds at most one item per key, and the others of that key wait for
 * the next batch, in their order (one `INSERT … ON CONFLICT DO UPDATE` may not touch a row twice,
 * and a second lock claim of one key must see what the first one did). `gatherTurn`: an idle
 * batcher starts its write at the end of the event loop's turn (setImmediate, as the file store's
 * sqlite-write-batch.ts does), not at the first item, so that the calls a turn makes together (the
 * notifications a batch of reads has just answered, each asking for its next step) share one write.
 * `writers` (default 1): how many writes may be under way at once; an item that comes while they
 * all are waits for the first to end, so a caller waits for at most one write before its own.
 */
export interface BatchedWrites<Item, Result> {
  add(item: Item): Promise<Result>;
  /** Resolves when every item added so far is written (or failed). */
  drained(): Promise<void>;
  /** How many items wait for the next write (not counting the write under way). */
  waiting(): number;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * How many of a batch's callers go on in one turn of the event loop. Each goes on with its own
 * work as its promise settles (a notification its next step), all in one run of microtasks if
 * settled at once: a batch of 500 held the event loop tens of milliseconds, and every request that
 * came meanwhile (the webhook's answers among them) waited it out (issue 43: the PostgreSQL
 * store's p99). Each group after the first waits for a turn of the loop (setImmediate), so the
 * loop reads its sockets at least every second group.
 */
export const settledPerTurn = 64;

async function settleInTurns<Result>(batch: ReadonlyArray<{ resolve: (result: Result) => void }>, results: readonly Result[]): Promise<void> {
  for (let from = 0; from < batch.length; from += settledPerTurn) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    const to = Math.min(batch.length, from + settledPerTurn);
    for (let index = from; index < to; index++) batch[index]!.resolve(results[index]!);
  }
}

export function createBatchedWrites<Item, Result>(
  write: (batch: Item[]) => Promise<Result[]>,
  most: number,
  options: { keyOf?: (item: Item) => string; gatherTurn?: boolean; writers?: number } = {},
): BatchedWrites<Item, Result> {
  const { keyOf, gatherTurn = false, writers = 1 } = options;
  let queue: Array<Waiting<Item, Result>> = [];
  const writing = new Set<Promise<void>>();
  /** Writers running or asked to start at the end of this turn (`gatherTurn`), counted in step with the queue. */
  let writersOn = 0;
  /** The next batch taken off the queue: the first `most`, or the first `most` of distinct keys. */
  const nextBatch = (): Array<Waiting<Item, Result>> => {
    if (!keyOf) {
      const batch = queue.slice(0, most);
      queue = queue.slice(batch.length);
      return batch;
    }
    const keys = new Set<string>();
    const batch: Array<Waiting<Item, Result>> = [];
    const left: Array<Waiting<Item, Result>> = [];
    for (const waiting of queue) {
      const key = keyOf(waiting.item);
      if (batch.length < most && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else left.push(waiting);
    }
    queue = left;
    return batch;
  };
  const writeWhileQueued = async () => {
    while (queue.length > 0) {
      const batch = nextBatch();
      let results: Result[];
      try {
        results = await write(batch.map((waiting) => waiting.item));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        continue;
      }
      await settleInTurns(batch, results);
    }
    // In the same step as the empty queue was seen: an item added from now on starts a writer.
    writersOn -= 1;
  };
  const startWriter = () => {
    if (queue.length === 0) {
      writersOn -= 1;
      return;
    }
    const writer: Promise<void> = writeWhileQueued().finally(() => writing.delete(writer));
    writing.add(writer);
  };
  return {
    add: (item) =>
      new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (writersOn >= writers) return;
        writersOn += 1;
        if (gatherTurn) setImmediate(startWriter);
        else startWriter();
      }),
    drained: async () => {
      while (writersOn > 0) await (writing.size > 0 ? Promise.all(writing) : new Promise((resolve) => setImmediate(resolve)));
    },
    waiting: () => queue.length,
  };
}
