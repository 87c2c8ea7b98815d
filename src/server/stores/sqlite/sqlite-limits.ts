/**
 * The file store's token buckets, in its own SQLite file: every process sharing the file counts
 * against one limit, as on Redis (redis/redis-limits.ts). What matters most is the console's
 * sign-in limit: with a bucket per process, N processes behind one front would let a guesser try
 * N times as often. Each take is one `BEGIN IMMEDIATE` transaction (SQLite's write lock), so
 * racing processes cannot both take the last token.
 *
 * The numbers a checkout tried and its open streams stay per process (memory/memory-limits.ts): both
 * expire with a checkout or a connection, and a stream lives in one process anyway.
 *
 * The table is created if missing, outside the store's schema version: an older companion on the
 * same file ignores it, so sharing limits needs no migration.
 */
import { waitSeconds, type LimitBackend, type RateLimit } from '../limit-backend.js';
import { createNumberGuard, createStreamSlots } from '../memory/memory-limits.js';
import type { SqliteDatabase } from './sqlite-open.js';

/** A bucket untouched for an hour is full again under any limit the companion sets: its row can go. */
const forgetAfterMs = 3_600_000;
const sweepEveryTakes = 1_000;

export function createSqliteLimits(db: SqliteDatabase, now: () => number): LimitBackend {
  db.exec('CREATE TABLE IF NOT EXISTS limit_buckets (key TEXT PRIMARY KEY, tokens REAL NOT NULL, at INTEGER NOT NULL) STRICT');
  const read = db.prepare<[string], { tokens: number; at: number }>('SELECT tokens, at FROM limit_buckets WHERE key = ?');
  const write = db.prepare<[string, number, number]>('INSERT OR REPLACE INTO limit_buckets (key, tokens, at) VALUES (?, ?, ?)');
  const forget = db.prepare<[number]>('DELETE FROM limit_buckets WHERE at < ?');
  let takes = 0;

  const take = db.transaction((key: string, limit: RateLimit, at: number): number => {
    const perMs = limit.perMinute / 60_000;
    const bucket = read.get(key);
    // Never refilled backwards when another process stamped the bucket a little later.
    const tokens = Math.min(limit.burst, (bucket?.tokens ?? limit.burst) + Math.max(0, at - (bucket?.at ?? at)) * perMs);
    if (tokens >= 1) {
      write.run(key, tokens - 1, Math.max(at, bucket?.at ?? at));
      return 0;
    }
    write.run(key, tokens, Math.max(at, bucket?.at ?? at));
    return waitSeconds(tokens, perMs);
  });

  return {
    limiter: (name, limit) => ({
      async take(key) {
        const at = now();
        if (++takes % sweepEveryTakes === 0) forget.run(at - forgetAfterMs);
        return take.immediate(`${name}:${key}`, limit, at);
      },
    }),
    numberGuard: (perCheckout) => createNumberGuard(perCheckout, now),
    streamSlots: (perCheckout) => createStreamSlots(perCheckout),
  };
}
