/**
 * The status hub: how a transition reaches every status stream of its order. In one process the
 * memory hub (`memory/memory-status-hub.ts`, also the file store's: its processes share a file,
 * not a bus, and a stream held by one hears another's change at its next re-read); across processes Redis pub/sub
 * (`redis/redis-status-hub.ts`) or PostgreSQL LISTEN/NOTIFY (`postgres/postgres-status-hub.ts`),
 * since a notification received by one process must reach a stream held by another.
 *
 * A bus delivers at most once, to who listens at that moment: a view published while a hub's
 * connection was down is not heard. So a hub says when its connection is back (`onRestored`), and
 * the status streams then read their payment again from the store (page-routes/event-stream.ts);
 * they also read it again every few seconds, for a publish that failed while the bus was up.
 */
import type { PaymentView } from '../../contract/companion.js';
import type { Logger } from '../log.js';

export interface StatusHub {
  publish(orderId: string, view: PaymentView): void;
  /** Returns the function that unsubscribes. */
  subscribe(orderId: string, listener: (view: PaymentView) => void): () => void;
  /** Open subscriptions, for the heartbeat and for tests. */
  size(): number;
  /**
   * Calls `listener` each time the hub listens again after losing its connection (the views
   * published meanwhile were not heard). Absent on the in-process hub, which cannot lose any.
   * Returns the function that stops calling it.
   */
  onRestored?(listener: () => void): () => void;
}

/** The `onRestored` listeners of a hub, called in turn (one that throws does not stop the others). */
export function createRestoreListeners(log: Logger) {
  const listeners = new Set<() => void>();
  return {
    add(own: () => void): () => void {
      const entry = () => own();
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    fire(): void {
      for (const own of [...listeners]) {
        try {
          own();
        } catch (error) {
          log.error('status hub restore listener failed', { error: error instanceof Error ? error.message : String(error) });
        }
      }
    },
    clear: () => listeners.clear(),
  };
}
