/**
 * Work that runs after its request has been answered (applying a kept notification, the setup
 * checks): tracked, so that closing the companion waits for it instead of cutting it.
 */
export interface BackgroundWork {
  /** Keeps `work` until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves when nothing tracked is running, work tracked while waiting included. */
  settled(): Promise<void>;
}

export function createBackgroundWork(): BackgroundWork {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const tracked = work.finally(() => running.delete(tracked));
      running.add(tracked);
      // The caller handles (or deliberately drops) the work's failure; the tracking copy must not
      // become an unhandled rejection of its own.
      tracked.catch(() => {});
      return work;
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
