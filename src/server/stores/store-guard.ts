/**
 * The store as the server API uses it: every failure of the backend (Redis stopped, a full disk, a
 * locked or corrupt SQLite file) and every call left unanswered past a deadline becomes one
 * {@link StoreUnavailableError}, which the server API answers `503 STORE_UNAVAILABLE` with
 * `Retry-After`. Without it a backend met a `500 INTERNAL` after 5 to 7 s (the SQLite busy wait,
 * node-redis's reconnection) and could not tell "retry later" from a bug (issue 20 §3).
 *
 * The payer's routes go through the same deadline, limits included (`guardLimits`): with
 * PostgreSQL frozen they answered after 10 s, and while it was down `500 INTERNAL` with an error
 * line per request (issue 40 §6); now `503 SERVICE_UNAVAILABLE` with `Retry-After`, in time.
 *
 * A store refusing a write on purpose (StoreConflictError), or refusing a value it cannot hold
 * (StoreDataError: repeated unchanged, it fails the same way), is not an outage and passes unchanged.
 * A call cut by the deadline may still complete later: every server API call is safe to repeat, and
 * so is every payer route (a pay re-posts the same order id, never a second payment).
 *
 * An outage is logged once when it starts (a warning) and once when a call succeeds again, not once
 * per request: a page polling through an outage would otherwise fill the log.
 */
import type { Logger } from '../log.js';
import type { LinkStore } from './link-store.js';
import type { LimitBackend } from './limit-backend.js';
import { StoreConflictError, StoreDataError, type CheckoutStore } from './store.js';

/** What a caller waits before trying again after a 503 for the store (`Retry-After`, seconds). */
export const storeRetryAfterSeconds = 5;

/** The store could not be read or written in time: try again later. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** A deadline and one error for every call of the store's methods (and of its limits'). */
export interface StoreDeadline {
  <A extends unknown[], R>(method: (...args: A) => Promise<R>, self: object): (...args: A) => Promise<R>;
}

/** The deadline of `timeoutMs`, saying an outage's start and end once each in `log` when given. */
export function storeDeadline(timeoutMs: number, log?: Logger): StoreDeadline {
  let down = false;
  const failed = (error: StoreUnavailableError) => {
    if (down) return;
    down = true;
    log?.warn('store unavailable: requests are answered 503 with Retry-After until it answers again', { error: error.message });
  };
  const answered = () => {
    if (!down) return;
    down = false;
    log?.info('store answers again');
  };
  return (method, self) =>
    async (...args) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError(`the store did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const result = await Promise.race([method.apply(self, args), late]);
        answered();
        return result;
      } catch (error) {
        if (error instanceof StoreConflictError || error instanceof StoreDataError) throw error;
        const unavailable =
          error instanceof StoreUnavailableError ? error : new StoreUnavailableError(`the store failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        failed(unavailable);
        throw unavailable;
      } finally {
        clearTimeout(timer);
      }
    };
}

export function guardStore(store: CheckoutStore, deadline: StoreDeadline): CheckoutStore {
  const guard = <A extends unknown[], R>(method: (...args: A) => Promise<R>) => deadline(method, store);
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
    ...(store.listNeedingSupport ? { listNeedingSupport: guard(store.listNeedingSupport) } : {}),
    ...(store.countPayments ? { countPayments: guard(store.countPayments) } : {}),
    ...(store.listPaymentsCreated ? { listPaymentsCreated: guard(store.listPaymentsCreated) } : {}),
    ...(store.links ? { links: guardLinks(store.links, deadline) } : {}),
  };
}

function guardLinks(links: LinkStore, deadline: StoreDeadline): LinkStore {
  const guard = <A extends unknown[], R>(method: (...args: A) => Promise<R>) => deadline(method, links);
  return {
    createLinkIfAbsent: guard(links.createLinkIfAbsent),
    getLink: guard(links.getLink),
    compareAndSetLink: guard(links.compareAndSetLink),
    listLinks: guard(links.listLinks),
  };
}

/** The page routes' limits behind the same deadline: a shared store counts them, and can be down too. */
export function guardLimits(limits: LimitBackend, deadline: StoreDeadline): LimitBackend {
  return {
    limiter(name, limit) {
      const limiter = limits.limiter(name, limit);
      return { take: deadline(limiter.take, limiter) };
    },
    numberGuard(perCheckout) {
      const guard = limits.numberGuard(perCheckout);
      return { admit: deadline(guard.admit, guard) };
    },
    streamSlots(perCheckout, leaseMs) {
      const slots = limits.streamSlots(perCheckout, leaseMs);
      return { acquire: deadline(slots.acquire, slots), release: deadline(slots.release, slots) };
    },
  };
}
