/**
 * The status hub: how a transition reaches every status stream of its order. In one process the
 * memory hub (`memory/memory-status-hub.ts`, also the file store's: its processes share a file,
 * not a bus, and a page re-checks on reconnect); across processes Redis pub/sub
 * (`redis/redis-status-hub.ts`) or PostgreSQL LISTEN/NOTIFY (`postgres/postgres-status-hub.ts`),
 * since a notification received by one process must reach a stream held by another.
 */
import type { PaymentView } from '../../contract/companion.js';

export interface StatusHub {
  publish(orderId: string, view: PaymentView): void;
  /** Returns the function that unsubscribes. */
  subscribe(orderId: string, listener: (view: PaymentView) => void): () => void;
  /** Open subscriptions, for the heartbeat and for tests. */
  size(): number;
}
