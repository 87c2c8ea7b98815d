/**
 * Rate limits of the page's routes that reach the service (lookup, preview, pay): every payer
 * shares the API key's upstream limits, and a preview may durably assign a provider to a number
 * (§4.2: a never-seen number may be assigned a provider pair by the preview alone), so a token
 * must not be a free oracle over strangers' numbers.
 *
 * In memory, per process: a token bucket per key (burst-tolerant: a payer who corrects a number
 * twice in a second is not refused) and a set of distinct numbers per checkout. Several processes
 * each apply their own; a shared limit (Redis) would implement the same two functions.
 *
 * Hand-written rather than a library: the installed dependencies have no limiter, and a bucket is
 * a few lines with no timer (refilled from the elapsed time at each take).
 */
import type { RateLimit } from '../options.js';

export interface Limiter {
  /** Takes one call for `key`: 0 when allowed, else the seconds to wait. */
  take(key: string): number;
}

export function createLimiter(limit: RateLimit, now: () => number, maxKeys = 100_000): Limiter {
  const perMs = limit.perMinute / 60_000;
  // Least recently used first (Map keeps insertion order; a take moves the key to the end), so the
  // map stays bounded under a flood of keys by forgetting the oldest, which are full by then anyway.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const at = now();
      const bucket = buckets.get(key) ?? { tokens: limit.burst, at };
      buckets.delete(key);
      bucket.tokens = Math.min(limit.burst, bucket.tokens + (at - bucket.at) * perMs);
      bucket.at = at;
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return perMs > 0 ? Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) : 60;
    },
  };
}

export interface NumberGuard {
  /** False when the checkout already used its share of distinct numbers and `e164` is a new one. */
  admit(orderId: string, e164: string, until: number): boolean;
}

export function createNumberGuard(perCheckout: number, now: () => number, maxCheckouts = 100_000): NumberGuard {
  const seen = new Map<string, { numbers: Set<string>; until: number }>();
  return {
    admit(orderId, e164, until) {
      const at = now();
      let entry = seen.get(orderId);
      if (entry && entry.until <= at) entry = undefined;
      if (!entry) {
        entry = { numbers: new Set(), until };
        seen.delete(orderId);
        seen.set(orderId, entry);
        if (seen.size > maxCheckouts) seen.delete(seen.keys().next().value!);
      }
      if (entry.numbers.has(e164)) return true;
      if (entry.numbers.size >= perCheckout) return false;
      entry.numbers.add(e164);
      return true;
    },
  };
}
