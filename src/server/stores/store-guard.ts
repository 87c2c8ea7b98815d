/**
 * The store as the server API uses it: every failure of the backend (Redis stopped, a full disk, a
 * locked or corrupt SQLite file) and every call left unanswered past a deadline becomes one
 * {@link StoreUnavailableError}, which the server API answers `503 STORE_UNAVAILABLE` with
 * `Retry-After`. Without it a backend met a `500 INTERNAL` after 5 to 7 s (the SQLite busy wait,
 * node-redis's reconnection) and could not tell "retry later" from a bug (issue 20 §3).
 *
 * A store refusing a write on purpose (StoreConflictError) is not an outage and passes unchanged.
 * A call cut by the deadline may still complete later: every server API call is safe to repeat.
 */
import { StoreConflictError, type CheckoutStore } from './store.js';

/** The store could not be read or written in time: try again later. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

export function guardStore(store: CheckoutStore, timeoutMs: number): CheckoutStore {
  const guard =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError(`the store did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([method.apply(store, args), late]);
      } catch (error) {
        if (error instanceof StoreConflictError || error instanceof StoreUnavailableError) throw error;
        throw new StoreUnavailableError(`the store failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
    };
  return {
    ...(store.kind !== undefined ? { kind: store.kind } : {}),
    ...(store.volatileId !== undefined ? { volatileId: store.volatileId } : {}),
    createIfAbsent: guard(store.createIfAbsent),
    getByOrderId: guard(store.getByOrderId),
    getByTokenHash: guard(store.getByTokenHash),
    getByReturnId: guard(store.getByReturnId),
    getByServiceOrderId: guard(store.getByServiceOrderId),
    compareAndSet: guard(store.compareAndSet),
    claimLock: guard(store.claimLock),
    releaseLock: guard(store.releaseLock),
    addToInbox: guard(store.addToInbox),
    pendingInbox: guard(store.pendingInbox),
    markInboxDone: guard(store.markInboxDone),
    dueDeliveries: guard(store.dueDeliveries),
    listPayments: guard(store.listPayments),
    ping: guard(store.ping),
    ...(store.endConsoleSession && store.isConsoleSessionEnded
      ? { endConsoleSession: guard(store.endConsoleSession), isConsoleSessionEnded: guard(store.isConsoleSessionEnded) }
      : {}),
    ...(store.probeWrite ? { probeWrite: guard(store.probeWrite) } : {}),
    ...(store.renewLock ? { renewLock: guard(store.renewLock) } : {}),
  };
}
