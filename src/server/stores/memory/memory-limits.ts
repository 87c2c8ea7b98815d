/**
 * Limits of the page's routes that reach the service (lookup, preview, pay) and of status streams:
 * every payer shares the API key's upstream limits, and a preview may durably assign a provider to
 * a number (§4.2: a never-seen number may be assigned a provider pair by the preview alone), so a
 * token must not be a free oracle over strangers' numbers.
 *
 * The interfaces (stores/limit-backend.ts) are async so that a shared store can keep the counts
 * (redis/redis-limits.ts, sqlite/sqlite-limits.ts): with several processes behind one front, a
 * limit kept per process is multiplied by their number. This file is the in-memory backend, for a
 * store that one process owns (memory); the file store keeps its token buckets in its file and its
 * per-process parts (numbers per checkout, streams) here.
 *
 * Hand-written rather than a library: the installed dependencies have no limiter, and a bucket is
 * a few lines with no timer (refilled from the elapsed time at each take).
 */
import { waitSeconds, type Limiter, type LimitBackend, type NumberGuard, type RateLimit, type StreamSlots } from '../limit-backend.js';

export type { Limiter, LimitBackend, NumberGuard, StreamSlots };

export function createMemoryLimits(now: () => number): LimitBackend {
  return {
    limiter: (_name, limit) => createLimiter(limit, now),
    numberGuard: (perCheckout) => createNumberGuard(perCheckout, now),
    // A process's own streams end with it: no lease needed.
    streamSlots: (perCheckout) => createStreamSlots(perCheckout),
  };
}

export function createLimiter(limit: RateLimit, now: () => number, maxKeys = 100_000): Limiter {
  const perMs = limit.perMinute / 60_000;
  // Least recently used first (Map keeps insertion order; a take moves the key to the end), so the
  // map stays bounded under a flood of keys by forgetting the oldest, which are full by then anyway.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(key) {
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
      return waitSeconds(bucket.tokens, perMs);
    },
  };
}

export function createNumberGuard(perCheckout: number, now: () => number, maxCheckouts = 100_000): NumberGuard {
  const seen = new Map<string, { numbers: Set<string>; until: number }>();
  return {
    async admit(orderId, e164, until) {
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

export function createStreamSlots(perCheckout: number): StreamSlots {
  const open = new Map<string, Set<string>>();
  return {
    async acquire(orderId, streamId) {
      const streams = open.get(orderId) ?? new Set<string>();
      if (streams.size >= perCheckout) return streams.size;
      streams.add(streamId);
      open.set(orderId, streams);
      return 0;
    },
    async release(orderId, streamId) {
      const streams = open.get(orderId);
      if (!streams?.delete(streamId)) return;
      if (streams.size === 0) open.delete(orderId);
    },
  };
}
