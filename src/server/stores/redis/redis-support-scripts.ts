/**
 * The Redis store's support views (model/support.ts; keys in redis-scripts.ts): what needs a
 * person, newest first, and the payments counted by state and operator, both kept by the record
 * write itself; and the one-time fill of both from records written before they existed.
 */
import { luaScript } from './redis-client.js';
import { prelude } from './redis-scripts.js';

/** Flat list: record JSON, ... the newest first, every live one (entries of a record gone are removed). */
export const listNeedingSupportScript = luaScript(`${prelude}
local out = {}
for _, orderId in ipairs(redis.call('ZREVRANGE', p .. 'support', 0, -1)) do
  local fields = redis.call('HMGET', p .. 'checkout:' .. orderId, 'record', 'retainUntil')
  if not fields[1] then
    redis.call('ZREM', p .. 'support', orderId)
  elseif tonumber(fields[2]) > now then
    out[#out + 1] = fields[1]
  end
end
return out
`);

/** ARGV[3] = from, [4] = to (excluded). Flat list: operator, state, count, ... (counts above zero). */
export const countPaymentsScript = luaScript(`${prelude}
local out = {}
for _, operator in ipairs(redis.call('SMEMBERS', p .. 'operators')) do
  for _, state in ipairs(states) do
    local count = redis.call('ZCOUNT', p .. 'counts:' .. state .. ':' .. operator, ARGV[3], '(' .. ARGV[4])
    if count > 0 then
      out[#out + 1] = operator
      out[#out + 1] = state
      out[#out + 1] = count
    end
  end
end
return out
`);

/**
 * The fill of the support views from a record written before them. ARGV[3] = orderId, [4] the
 * revision read, [5] operatorName or '', [6] supportSince or '', [7] payment state, [8] payment.updatedAt.
 * Skipped when the record changed since it was read: its write kept the views itself.
 */
export const fillSupportViewsScript = luaScript(`${prelude}
local key = p .. 'checkout:' .. ARGV[3]
if redis.call('HGET', key, 'revision') ~= ARGV[4] then return 0 end
redis.call('HSET', key, 'operator', ARGV[5])
redis.call('SADD', p .. 'operators', ARGV[5])
redis.call('ZADD', p .. 'counts:' .. ARGV[7] .. ':' .. ARGV[5], ARGV[8], ARGV[3])
if ARGV[6] ~= '' then redis.call('ZADD', p .. 'support', ARGV[6], ARGV[3]) end
return 1
`);
