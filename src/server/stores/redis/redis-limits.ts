/**
 * The limits kept in Redis, next to the Redis store: every process on the store counts against one
 * limit (issue 20: two processes behind a round-robin front let a checkout make 20 + 20 pay calls
 * against a limit of 20, and try 10 numbers against a limit of 5).
 *
 * Each check is one Lua script (Redis runs it alone), so racing processes cannot both take the
 * last token or the last slot:
 *
 *   <p>limit:<name>:<key>   hash: tokens, at (a token bucket; expires once it would be full again)
 *   <p>numbers:<orderId>    set of the distinct numbers the checkout used (expires with its token)
 *   <p>streams:<orderId>    zset stream id by lease end (a crashed process's slots free themselves)
 *
 * Not rate-limiter-flexible (11.4, the maintained limiter on npm): its Redis limiter counts fixed
 * windows (a payer at a window's edge gets two bursts) and has no distinct-members or lease-slot
 * counter, so two of the three would be hand-written anyway; these scripts are a few lines each,
 * on the node-redis client and the EVALSHA helper the store already uses.
 *
 * Times are the companion's clock, as in the store's scripts (a bucket whose last take another
 * process stamped a little later is never refilled backwards).
 */
import { waitSeconds, type LimitBackend, type RateLimit } from '../limit-backend.js';
import { luaScript, runScript, type AnyRedisClient, type LuaScript } from './redis-client.js';

/** ARGV: [1] prefix, [2] now, [3] name, [4] key, [5] burst, [6] tokens per ms. Returns {1|0, tokens left as a string}. */
const takeScript = luaScript(`
local key = ARGV[1] .. 'limit:' .. ARGV[3] .. ':' .. ARGV[4]
local now, burst, perMs = tonumber(ARGV[2]), tonumber(ARGV[5]), tonumber(ARGV[6])
local bucket = redis.call('HMGET', key, 'tokens', 'at')
local tokens, at = tonumber(bucket[1]) or burst, tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * perMs)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(math.max(now, at)))
-- A bucket left alone refills: once full it is the same as no bucket, so it is dropped.
local ttl = 86400000
if perMs > 0 then ttl = math.ceil((burst - tokens) / perMs) + 1000 end
redis.call('PEXPIRE', key, ttl)
return {allowed, tostring(tokens)}
`);

/** ARGV: [1] prefix, [2] now, [3] orderId, [4] e164, [5] per checkout, [6] until. 1 when admitted. */
const admitScript = luaScript(`
local key = ARGV[1] .. 'numbers:' .. ARGV[3]
if redis.call('SISMEMBER', key, ARGV[4]) == 1 then return 1 end
local count = redis.call('SCARD', key)
if count >= tonumber(ARGV[5]) then return 0 end
redis.call('SADD', key, ARGV[4])
-- The first number fixes the set's end (the checkout's expiry), as the memory guard does.
if count == 0 then redis.call('PEXPIRE', key, math.max(1, tonumber(ARGV[6]) - tonumber(ARGV[2]))) end
return 1
`);

/** ARGV: [1] prefix, [2] now, [3] orderId, [4] stream id, [5] per checkout, [6] lease ms. 0 when taken, else the streams open. */
const acquireScript = luaScript(`
local key = ARGV[1] .. 'streams:' .. ARGV[3]
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local open = redis.call('ZCARD', key)
if open >= tonumber(ARGV[5]) then return open end
redis.call('ZADD', key, now + tonumber(ARGV[6]), ARGV[4])
redis.call('PEXPIRE', key, tonumber(ARGV[6]))
return 0
`);

/** ARGV: [1] prefix, [2] now, [3] orderId, [4] stream id. */
const releaseScript = luaScript(`
redis.call('ZREM', ARGV[1] .. 'streams:' .. ARGV[3], ARGV[4])
return 0
`);

/** Limits shared by every process that uses `client` with `prefix` (the Redis store's). */
export function createRedisLimits(client: AnyRedisClient, prefix: string, now: () => number): LimitBackend {
  const run = (script: LuaScript, ...args: Array<string | number>) => runScript(client, script, [prefix, now(), ...args]);
  return {
    limiter(name: string, limit: RateLimit) {
      const perMs = limit.perMinute / 60_000;
      return {
        async take(key) {
          const [allowed, tokens] = (await run(takeScript, name, key, limit.burst, perMs)) as [number, string];
          return allowed === 1 ? 0 : waitSeconds(Number(tokens), perMs);
        },
      };
    },
    numberGuard(perCheckout) {
      return {
        admit: async (orderId, e164, until) => (await run(admitScript, orderId, e164, perCheckout, until)) === 1,
      };
    },
    streamSlots(perCheckout, leaseMs) {
      return {
        acquire: async (orderId, streamId) => Number(await run(acquireScript, orderId, streamId, perCheckout, Math.max(1, Math.ceil(leaseMs)))),
        release: async (orderId, streamId) => void (await run(releaseScript, orderId, streamId)),
      };
    },
  };
}
