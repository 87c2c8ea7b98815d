/**
 * Writes grouped while one is under way: the first item starts a write at once; the items that come
 * while it runs wait for it to end and then go in together, as the next write (up to `most` per
 * write). One round trip and one commit for many, with no timer: an idle store writes at once, a
 * busy one in batches as large as its backlog. Each item's promise settles with its own result once
 * its batch is written, or with the write's error.
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

export function createBatchedWrites<Item, Result>(write: (batch: Item[]) => Promise<Result[]>, most: number): BatchedWrites<Item, Result> {
  let queue: Array<Waiting<Item, Result>> = [];
  let writing: Promise<void> | undefined;
  const writeWhileQueued = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, most);
      queue = queue.slice(batch.length);
      try {
        const results = await write(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => waiting.resolve(results[index]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    writing = undefined;
  };
  return {
    add: (item) =>
      new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        writing ??= writeWhileQueued();
      }),
    drained: async () => {
      while (writing) await writing;
    },
    waiting: () => queue.length,
  };
}
