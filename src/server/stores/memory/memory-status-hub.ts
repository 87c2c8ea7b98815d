/**
 * The in-process status hub: publish/subscribe of payment views keyed by order id, for one process
 * (and for the file store, whose processes share no bus). Redis and PostgreSQL implement the same
 * interface (`stores/status-hub.ts`) for several processes.
 */
import type { PaymentView } from '../../../contract/companion.js';
import type { StatusHub } from '../status-hub.js';

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
