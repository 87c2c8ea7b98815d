/**
 * Where the page routes' limits are counted: a store shared by several processes offers its own
 * (`CheckoutStore.limits`, e.g. redis/redis-limits.ts), so a limit holds for all of them together;
 * otherwise each process counts in memory (stores/memory/memory-limits.ts). Every check is atomic.
 */
/** A token bucket's shape: a burst, then so many per minute (`CompanionLimits`). */
export interface RateLimit {
  burst: number;
  perMinute: number;
}

export interface Limiter {
  /** Takes one call for `key`: 0 when allowed, else the seconds to wait. */
  take(key: string): Promise<number>;
}

export interface NumberGuard {
  /** False when the checkout already used its share of distinct numbers and `e164` is a new one. */
  admit(orderId: string, e164: string, until: number): Promise<boolean>;
}

export interface StreamSlots {
  /** Takes a slot for stream `streamId` of the order: 0 when taken, else how many streams hold the order's slots. */
  acquire(orderId: string, streamId: string): Promise<number>;
  /** Gives the slot back (the stream ended). */
  release(orderId: string, streamId: string): Promise<void>;
}

/** Where limits are counted: this process's memory, or a store shared by every process. */
export interface LimitBackend {
  /** A token bucket per key; `name` keeps buckets of different limits apart. */
  limiter(name: string, limit: RateLimit): Limiter;
  numberGuard(perCheckout: number): NumberGuard;
  /** `leaseMs`: the longest a stream lives; a slot held by a process that died is freed after it. */
  streamSlots(perCheckout: number, leaseMs: number): StreamSlots;
}

/** The seconds to wait before a token bucket holding `tokens` has one again (both backends' rule). */
export function waitSeconds(tokens: number, perMs: number): number {
  return perMs > 0 ? Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) : 60;
}
