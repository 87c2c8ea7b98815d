/**
 * Part `status/` (docs/architecture.md): the status hub: how a transition reaches every status
 * stream of its order in this process (Redis pub/sub implements the same interface in
 * stores/redis/). May import model/ and the foundation (log, tokens).
 *
 * In-process publish/subscribe of payment views, keyed by order id. Behind this small interface
 * so Redis pub/sub can replace it when the companion runs in several processes (a webhook received
 * by one process must reach a stream held by another).
 */
import type { PaymentView } from '../../contract/companion.js';

export interface StatusHub {
  publish(orderId: string, view: PaymentView): void;
  /** Returns the function that unsubscribes. */
  subscribe(orderId: string, listener: (view: PaymentView) => void): () => void;
  /** Open subscriptions, for the heartbeat and for tests. */
  size(): number;
}

export function createMemoryStatusHub(): StatusHub {
  const listeners = new Map<string, Set<(view: PaymentView) => void>>();
  let count = 0;
  return {
    publish(orderId, view) {
      for (const listener of listeners.get(orderId) ?? []) listener(view);
    },
    subscribe(orderId, listener) {
      let set = listeners.get(orderId);
      if (!set) listeners.set(orderId, (set = new Set()));
      set.add(listener);
      count += 1;
      return () => {
        if (set.delete(listener)) count -= 1;
        if (set.size === 0) listeners.delete(orderId);
      };
    },
    size: () => count,
  };
}
