/**
 * The companion's periodic work (resume the inbox, report stuck payments; deliveries have their
 * own poll, deliveries/delivery-worker.ts):
 * run once at start, then every `intervalMs`, one round at a time, on a timer that never keeps a
 * process alive. A task that fails is logged and tried again next round.
 */
import type { Logger } from './log.js';

export interface Maintenance {
  /** Resolves when the first round (at start) is done. Never rejects. */
  readonly first: Promise<void>;
  stop(): Promise<void>;
}

export function createMaintenance(options: { log: Logger; intervalMs: number; tasks: Record<string, () => Promise<unknown>> }): Maintenance {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  const round = async () => {
    for (const [name, task] of Object.entries(options.tasks)) {
      if (stopped) return;
      try {
        await task();
      } catch (error) {
        options.log.error(`companion maintenance: ${name} failed; tried again in ${Math.round(options.intervalMs / 1000)} s`, { error });
      }
    }
  };
  // Started on the next tick, so the companion's construction finishes first.
  const first = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(round);
  current = first;
  const timer = setInterval(() => {
    current = current.then(round);
  }, options.intervalMs);
  (timer as { unref?: () => void }).unref?.();
  return {
    first,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
