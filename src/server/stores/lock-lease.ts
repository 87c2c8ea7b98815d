/**
 * A store lock held as a short lease that its holder keeps alive (issue 45).
 *
 * Why a lease and not a long ttl: a lock taken for a minute outlives a process killed with
 * SIGKILL (a crash, an out-of-memory kill, a deploy that does not drain) by that minute, and every
 * call that meets it meanwhile is turned away although nothing is under way. Here the lock lasts a
 * few seconds and a timer of the holding process renews it (`renewLock`); a holder that dies stops
 * renewing, so its lock is free again within `leaseMs`, on every engine, with no registry of
 * processes and nothing for the restart to clean up. A lock's key and owner stay as they were.
 *
 * Why that is safe: a holder that is alive but paused past its lease (a frozen VM, an event loop
 * blocked for seconds) may find the lock taken over when it resumes. Work that must happen under
 * the lock only (a pay-in's post) asks {@link HeldLock.stillHeld} right before it: that renews the
 * lease in the store, so it answers true only if no one else has taken the lock, and keeps it for
 * another `leaseMs`. Callers also fence the write they make before that work (pay-flow.ts), so a
 * holder overtaken earlier writes nothing.
 *
 * A store of one's own without `renewLock` keeps the old behaviour: the lock is taken for
 * `fallbackTtlMs` and released at the end, and `stillHeld` cannot ask (it answers true).
 */
import { randomId } from '../tokens.js';
import type { CheckoutStore } from './store.js';

/** Long enough for a slow store's round trip, short enough that a dead holder's lock frees quickly. */
export const defaultLockLeaseMs = 5_000;

export interface HeldLock {
  /** The owner written in the store (for logs). */
  readonly owner: string;
  /** True if this process still holds the lock; renews it for another lease as it asks. */
  stillHeld(): Promise<boolean>;
  /** Stops renewing and releases the lock (if still ours). */
  release(): Promise<void>;
}

export interface LockLeaseOptions {
  /** The lease; renewed every fifth of it, so a process slowed down for most of a lease keeps it. Default {@link defaultLockLeaseMs}. */
  leaseMs?: number;
  /** The whole ttl for a store without `renewLock`. */
  fallbackTtlMs: number;
}

/** Takes `key` for this process, or returns null when another owner holds it. */
export async function takeLock(store: CheckoutStore, key: string, options: LockLeaseOptions): Promise<HeldLock | null> {
  const owner = randomId(12);
  const renewLock = store.renewLock?.bind(store);
  if (!renewLock) {
    if (!(await store.claimLock(key, owner, options.fallbackTtlMs))) return null;
    return { owner, stillHeld: async () => true, release: () => store.releaseLock(key, owner) };
  }
  const leaseMs = options.leaseMs ?? defaultLockLeaseMs;
  if (!(await store.claimLock(key, owner, leaseMs))) return null;
  let lost = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = async (): Promise<boolean> => {
    if (lost) return false;
    if (!(await renewLock(key, owner, leaseMs))) lost = true;
    return !lost;
  };
  const timer = setInterval(() => {
    // A failed renewal (the store briefly unreachable) is retried at the next tick; stillHeld asks again.
    renewing = renew().catch(() => undefined);
  }, Math.max(1, Math.floor(leaseMs / 5)));
  // The lease never keeps a process alive that is otherwise done.
  timer.unref?.();
  return {
    owner,
    stillHeld: renew,
    async release() {
      clearInterval(timer);
      await renewing;
      if (!lost) await store.releaseLock(key, owner);
    },
  };
}
