/**
 * The page routes' limits kept in Postgres, next to the Postgres store, so that every process on
 * the database counts against one limit (as redis-limits.ts does for Redis; the rules are the same):
 *
 *   <schema>.limit_buckets   a token bucket per (limit name, key): tokens, last take, until (dropped once full again)
 *   <schema>.limit_numbers   the distinct numbers a checkout used, until the checkout's expiry
 *   <schema>.limit_streams   stream slots of an order, each until its lease ends (a crashed process's free themselves)
 *
 * A take is one statement: a new bucket is inserted already taken from, an existing one is locked
 * (`FOR UPDATE` in a CTE), refilled and taken from in the same UPDATE, so racing processes cannot
 * both take the last token. The number guard and the stream slots count then insert, under a
 * transaction-scoped advisory lock on the order, so two processes cannot both take the last slot.
 * Expired rows are deleted by the store's sweep. Times are the companion's clock.
 */
import type { Pool, PoolClient } from 'pg';
import { waitSeconds, type LimitBackend, type RateLimit } from '../limit-backend.js';
import { inTransaction } from './postgres-connection.js';

/** Limits shared by every process that uses schema `s` of this database. */
export function createPostgresLimits(pool: Pool, s: string, now: () => number): LimitBackend {
  /** Runs `work` holding the lock of `orderId` for `what` (numbers or streams) until it commits. */
  const underOrderLock = <T>(what: string, orderId: string, work: (client: PoolClient) => Promise<T>) =>
    inTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`${s}.${what}`, orderId]);
      return work(client);
    });

  return {
    limiter(name: string, limit: RateLimit) {
      const perMs = limit.perMinute / 60_000;
      // A bucket left alone refills: once full it is the same as no bucket, so it may be dropped then.
      const untilFull = (at: number, tokens: number) => at + (perMs > 0 ? Math.ceil((limit.burst - tokens) / perMs) + 1000 : 86_400_000);
      return {
        async take(key) {
          const at = now();
          if (limit.burst >= 1) {
            const created = await pool.query(
              `INSERT INTO ${s}.limit_buckets (name, key, tokens, at, until) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name, key) DO NOTHING`,
              [name, key, limit.burst - 1, at, untilFull(at, limit.burst - 1)],
            );
            if (created.rowCount === 1) return 0;
          }
          const result = await pool.query<{ allowed: boolean; tokens: number }>(
            `WITH current AS (
               SELECT name, key, least($3::float8, tokens + greatest(0, $4::bigint - at) * $5::float8) AS refilled
               FROM ${s}.limit_buckets WHERE name = $1 AND key = $2 FOR UPDATE)
             UPDATE ${s}.limit_buckets b
               SET tokens = CASE WHEN current.refilled >= 1 THEN current.refilled - 1 ELSE current.refilled END,
                   at = greatest($4::bigint, b.at),
                   until = $4::bigint + CASE WHEN $5::float8 > 0 THEN ceil(($3::float8 - current.refilled + 1) / $5::float8)::bigint + 1000 ELSE 86400000 END
             FROM current WHERE b.name = current.name AND b.key = current.key
             RETURNING current.refilled >= 1 AS allowed, b.tokens`,
            [name, key, limit.burst, at, perMs],
          );
          const row = result.rows[0];
          if (!row) return waitSeconds(0, perMs); // a burst below 1: never allowed
          return row.allowed ? 0 : waitSeconds(row.tokens, perMs);
        },
      };
    },
    numberGuard(perCheckout) {
      return {
        admit: (orderId, e164, until) =>
          underOrderLock('numbers', orderId, async (client) => {
            const used = await client.query<{ e164: string }>(`SELECT e164 FROM ${s}.limit_numbers WHERE order_id = $1 AND until > $2`, [orderId, now()]);
            if (used.rows.some((row) => row.e164 === e164)) return true;
            if (used.rows.length >= perCheckout) return false;
            await client.query(`INSERT INTO ${s}.limit_numbers (order_id, e164, until) VALUES ($1, $2, $3) ON CONFLICT (order_id, e164) DO UPDATE SET until = excluded.until`, [orderId, e164, until]);
            return true;
          }),
      };
    },
    streamSlots(perCheckout, leaseMs) {
      const lease = Math.max(1, Math.ceil(leaseMs));
      return {
        acquire: (orderId, streamId) =>
          underOrderLock('streams', orderId, async (client) => {
            const at = now();
            await client.query(`DELETE FROM ${s}.limit_streams WHERE order_id = $1 AND until <= $2`, [orderId, at]);
            const open = await client.query<{ open: number }>(`SELECT count(*)::int AS open FROM ${s}.limit_streams WHERE order_id = $1 AND stream_id <> $2`, [orderId, streamId]);
            const count = open.rows[0]!.open;
            if (count >= perCheckout) return count;
            await client.query(`INSERT INTO ${s}.limit_streams (order_id, stream_id, until) VALUES ($1, $2, $3) ON CONFLICT (order_id, stream_id) DO UPDATE SET until = excluded.until`, [orderId, streamId, at + lease]);
            return 0;
          }),
        release: async (orderId, streamId) => {
          await pool.query(`DELETE FROM ${s}.limit_streams WHERE order_id = $1 AND stream_id = $2`, [orderId, streamId]);
        },
      };
    },
  };
}
