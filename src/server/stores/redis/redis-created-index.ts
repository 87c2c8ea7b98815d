/**
 * The Redis store's export index (store.ts `listPaymentsCreated`; keys in redis-scripts.ts): the
 * order ids of payments in `<p>created` by creation time, kept by the record write itself, read a
 * page at a time after a cursor, and filled once from the payments written before it existed.
 */
import { luaScript, type AnyRedisClient } from './redis-client.js';
import { prelude } from './redis-scripts.js';
import { fillOncePerPrefix } from './redis-fill-once.js';

/**
 * ARGV[3] = from, [4] = to (excluded), [5] the cursor's createdAt, [6] its order id ('' for none),
 * [7] limit. Flat list of record JSON, by (createdAt, order id): a sorted set orders members of one
 * score by their bytes, so the members of the cursor's millisecond up to it are skipped here.
 */
export const listPaymentsCreatedScript = luaScript(`${prelude}
local set = p .. 'created'
local afterAt, afterId, limit = tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local out = {}
local start = 0
while #out < limit do
  local page = redis.call('ZRANGEBYSCORE', set, math.max(tonumber(ARGV[3]), afterAt), '(' .. ARGV[4], 'WITHSCORES', 'LIMIT', start, limit)
  if #page == 0 then break end
  for j = 1, #page, 2 do
    local orderId, createdAt = page[j], tonumber(page[j + 1])
    local fields = redis.call('HMGET', p .. 'checkout:' .. orderId, 'record', 'retainUntil')
    if not fields[1] then
      redis.call('ZREM', set, orderId)
    else
      start = start + 1
      local past = createdAt > afterAt or (afterId ~= '' and orderId > afterId) or (afterId == '' and createdAt >= afterAt)
      if past and tonumber(fields[2]) > now and #out < limit then out[#out + 1] = fields[1] end
    end
  end
end
return out
`);

/**
 * Adds the payments a companion before the export wrote to `<p>created`, once per key prefix, at a
 * store's start. A record's creation time never changes, so this races with no write: two processes
 * starting together both add the same entries. Returns how many payments were read (0 when filled).
 */
export function fillCreatedIndex(client: AnyRedisClient, prefix: string): Promise<number> {
  return fillOncePerPrefix(client, prefix, 'created-view', async (orderIds) => {
    const records = await Promise.all(orderIds.map((orderId) => client.hGet(`${prefix}checkout:${orderId}`, 'record')));
    const entries = records.flatMap((json, index) => (json ? [{ score: (JSON.parse(String(json)) as { createdAt: number }).createdAt, value: orderIds[index]! }] : []));
    if (entries.length > 0) await client.zAdd(`${prefix}created`, entries);
    return entries.length;
  });
}
