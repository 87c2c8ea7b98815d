/**
 * The Redis store's Lua scripts. Redis runs a script alone, start to finish, so each of these is
 * one atomic step: the read that decides and the writes that follow cannot be interleaved with
 * another process's.
 *
 * Every script takes ARGV[1] = the key prefix and ARGV[2] = the store's clock (epoch ms), and builds
 * its keys from the prefix (so one Redis, or a primary with replicas, not Redis Cluster):
 *
 *   <p>checkout:<orderId>   hash: record (JSON), revision, retainUntil, tokenHash, returnId, state, operator
 *   <p>token:<tokenHash>, <p>return:<returnId>, <p>service:<serviceOrderId>   → orderId
 *   <p>services:<orderId>   set of the order's service order ids (every attempt)
 *   <p>due                  zset orderId by nextDeliveryAt(record)
 *   <p>payments:<state>     zset orderId by payment.updatedAt, one per payment state
 *   <p>retain               zset orderId by retainUntil: what the sweep cleans
 *   <p>support              zset orderId by supportSince(record): what needs a person (model/support.ts)
 *   <p>counts:<state>:<operator>   zset orderId by payment.updatedAt (countPayments); <p>operators: set of the operator names
 *   <p>support-views        'v1' once the two above were filled from the records written before them
 *   <p>created              zset orderId by record.createdAt, payments only (the export); <p>created-view 'v1' once filled
 *   <p>lock:<key>           owner, with PX ttl
 *   <p>session-ended:<id>   a console session signed out before its expiry, with PX ttl to that expiry
 *   <p>inbox:<id>           hash: rawBody, receivedAt, done, until; <p>inbox-pending zset id by receivedAt
 *   <p>limit:*, <p>numbers:*, <p>streams:*   the page routes' limits (redis-limits.ts)
 *
 * Record keys and their index keys carry a TTL of `retainUntil - now`, so Redis drops them itself;
 * a record is also treated as absent once `retainUntil <= now` (the store's clock, which tests
 * inject). Sorted-set entries cannot expire: an entry pointing at a record that is gone is removed
 * when a read meets it, and the sweep removes the rest.
 */
import { paymentStates } from '../../../contract/companion.js';
import { luaScript } from './redis-client.js';

export { paymentStates };

export const prelude = `
local p = ARGV[1]
local now = tonumber(ARGV[2])
local states = {${paymentStates.map((state) => `'${state}'`).join(', ')}}

local function isLive(orderId)
  local retainUntil = redis.call('HGET', p .. 'checkout:' .. orderId, 'retainUntil')
  return retainUntil ~= false and tonumber(retainUntil) > now
end

-- Removes a record and every index entry that still points at it (and none that another order took over).
local function forget(orderId)
  local key = p .. 'checkout:' .. orderId
  local fields = redis.call('HMGET', key, 'tokenHash', 'returnId')
  if fields[1] and redis.call('GET', p .. 'token:' .. fields[1]) == orderId then redis.call('DEL', p .. 'token:' .. fields[1]) end
  if fields[2] and redis.call('GET', p .. 'return:' .. fields[2]) == orderId then redis.call('DEL', p .. 'return:' .. fields[2]) end
  for _, id in ipairs(redis.call('SMEMBERS', p .. 'services:' .. orderId)) do
    if redis.call('GET', p .. 'service:' .. id) == orderId then redis.call('DEL', p .. 'service:' .. id) end
  end
  redis.call('DEL', key, p .. 'services:' .. orderId)
  redis.call('ZREM', p .. 'due', orderId)
  redis.call('ZREM', p .. 'retain', orderId)
  for _, state in ipairs(states) do redis.call('ZREM', p .. 'payments:' .. state, orderId) end
  -- The record's operator is gone with its key (Redis expired it): every operator's sets are cleaned.
  redis.call('ZREM', p .. 'support', orderId)
  redis.call('ZREM', p .. 'created', orderId)
  for _, operator in ipairs(redis.call('SMEMBERS', p .. 'operators')) do
    for _, state in ipairs(states) do redis.call('ZREM', p .. 'counts:' .. state .. ':' .. operator, orderId) end
  end
end
`;

/**
 * The record write shared by create and compare-and-set. ARGV: [3] orderId, [4] record JSON,
 * [5] revision, [6] retainUntil, [7] tokenHash, [8] returnId, [9] JSON array of the record's
 * service order ids (its attempt's and its refunds' pay-outs: serviceOrderIdsOf),
 * [10] payment state or '', [11] payment.updatedAt or '', [12] nextDeliveryAt or '',
 * [13] operatorName(payment) or '', [14] supportSince(record) or '' (model/support.ts), [15] createdAt.
 */
const recordWrite = `
local orderId = ARGV[3]
local key = p .. 'checkout:' .. orderId
local serviceOrderIds = cjson.decode(ARGV[9])

-- The live order other than this one that service order id "id" belongs to: the order one of
-- whose attempts was sent under it, or the live checkout whose own order id it is.
local function otherOwner(id)
  if id == '' then return false end
  local owner = redis.call('GET', p .. 'service:' .. id)
  if owner and owner ~= orderId and isLive(owner) then return owner end
  if id ~= orderId and isLive(id) then return id end
  return false
end

-- The first of "ids" that another live order owns: {owner, id}, or false.
local function firstTaken(ids)
  for _, id in ipairs(ids) do
    local owner = otherOwner(id)
    if owner then return {owner, id} end
  end
  return false
end

-- The support views (model/support.ts), in the same script as the record.
local function writeSupportViews(previousState, previousOperator)
  if previousState and previousState ~= '' and previousOperator and previousOperator ~= '' then
    redis.call('ZREM', p .. 'counts:' .. previousState .. ':' .. previousOperator, orderId)
  end
  if ARGV[10] ~= '' then
    redis.call('SADD', p .. 'operators', ARGV[13])
    redis.call('ZADD', p .. 'counts:' .. ARGV[10] .. ':' .. ARGV[13], ARGV[11], orderId)
  end
  if ARGV[14] ~= '' then redis.call('ZADD', p .. 'support', ARGV[14], orderId) else redis.call('ZREM', p .. 'support', orderId) end
end

local function write(previousState, previousOperator)
  local ttl = math.max(1, math.floor(tonumber(ARGV[6]) - now))
  redis.call('HSET', key, 'record', ARGV[4], 'revision', ARGV[5], 'retainUntil', ARGV[6], 'tokenHash', ARGV[7], 'returnId', ARGV[8], 'state', ARGV[10], 'operator', ARGV[13])
  redis.call('PEXPIRE', key, ttl)
  redis.call('SET', p .. 'token:' .. ARGV[7], orderId, 'PX', ttl)
  redis.call('SET', p .. 'return:' .. ARGV[8], orderId, 'PX', ttl)
  -- Every attempt's service order id stays the order's for the record's lifetime (a late
  -- notification of attempt 1 must still find it), so each gets the record's new TTL.
  local services = p .. 'services:' .. orderId
  for _, id in ipairs(serviceOrderIds) do redis.call('SADD', services, id) end
  for _, id in ipairs(redis.call('SMEMBERS', services)) do redis.call('SET', p .. 'service:' .. id, orderId, 'PX', ttl) end
  redis.call('PEXPIRE', services, ttl)
  if ARGV[12] ~= '' then redis.call('ZADD', p .. 'due', ARGV[12], orderId) else redis.call('ZREM', p .. 'due', orderId) end
  if previousState and previousState ~= '' and previousState ~= ARGV[10] then redis.call('ZREM', p .. 'payments:' .. previousState, orderId) end
  if ARGV[10] ~= '' then
    redis.call('ZADD', p .. 'payments:' .. ARGV[10], ARGV[11], orderId)
    redis.call('ZADD', p .. 'created', ARGV[15], orderId)
  end
  redis.call('ZADD', p .. 'retain', ARGV[6], orderId)
  writeSupportViews(previousState, previousOperator)
end
`;

/**
 * Returns {1} when stored, {0, stored JSON} when the order has a live record, {-1, owner, id} on a
 * service order id conflict: the new order's id is another order's attempt id, or its payment's is taken.
 */
export const createIfAbsentScript = luaScript(`${prelude}${recordWrite}
local current = redis.call('HMGET', key, 'record', 'retainUntil')
if current[1] then
  if tonumber(current[2]) > now then return {0, current[1]} end
  forget(orderId)
end
local taken = firstTaken({orderId}) or firstTaken(serviceOrderIds)
if taken then return {-1, taken[1], taken[2]} end
write(false, false)
return {1}
`);

/** ARGV[16] = expected revision. Returns {1} when written, {0} when stale or absent, {-1, owner, id} on a conflict. */
export const compareAndSetScript = luaScript(`${prelude}${recordWrite}
local current = redis.call('HMGET', key, 'revision', 'retainUntil', 'state', 'operator')
if not current[1] or tonumber(current[2]) <= now or tonumber(current[1]) ~= tonumber(ARGV[16]) then return {0} end
local taken = firstTaken(serviceOrderIds)
if taken then return {-1, taken[1], taken[2]} end
write(current[3], current[4])
return {1}
`);

/** ARGV[3] = orderId. The record JSON, or nil. */
export const getByOrderIdScript = luaScript(`${prelude}
local fields = redis.call('HMGET', p .. 'checkout:' .. ARGV[3], 'record', 'retainUntil')
if fields[1] and tonumber(fields[2]) > now then return fields[1] end
return false
`);

/** ARGV[3] = 'token' | 'return' | 'service', ARGV[4] = the id. The record JSON, or nil. */
export const getByIndexScript = luaScript(`${prelude}
local indexKey = p .. ARGV[3] .. ':' .. ARGV[4]
local orderId = redis.call('GET', indexKey)
if not orderId then return false end
local fields = redis.call('HMGET', p .. 'checkout:' .. orderId, 'record', 'retainUntil', 'tokenHash', 'returnId')
if not fields[1] then
  redis.call('DEL', indexKey)
  return false
end
if tonumber(fields[2]) <= now then return false end
if ARGV[3] == 'token' and fields[3] ~= ARGV[4] then return false end
if ARGV[3] == 'return' and fields[4] ~= ARGV[4] then return false end
if ARGV[3] == 'service' and redis.call('SISMEMBER', p .. 'services:' .. orderId, ARGV[4]) == 0 then return false end
return fields[1]
`);

/** ARGV[3] = lock name, [4] owner, [5] ttl ms. 1 when `owner` holds the lock after the call. */
export const claimLockScript = luaScript(`${prelude}
local key = p .. 'lock:' .. ARGV[3]
if redis.call('GET', key) == ARGV[4] then
  redis.call('PEXPIRE', key, ARGV[5])
  return 1
end
if redis.call('SET', key, ARGV[4], 'NX', 'PX', ARGV[5]) then return 1 end
return 0
`);

/** ARGV[3] = lock name, [4] owner, [5] ttl ms. 1 when `owner` held the lock and it now lasts the ttl again. */
export const renewLockScript = luaScript(`${prelude}
local key = p .. 'lock:' .. ARGV[3]
if redis.call('GET', key) ~= ARGV[4] then return 0 end
redis.call('PEXPIRE', key, ARGV[5])
return 1
`);

/** ARGV[3] = lock name, [4] owner. Deletes the lock only if `owner` still holds it. */
export const releaseLockScript = luaScript(`${prelude}
local key = p .. 'lock:' .. ARGV[3]
if redis.call('GET', key) == ARGV[4] then redis.call('DEL', key) end
return 0
`);

/**
 * ARGV[3] = console session id, [4] its expiry (epoch ms). The TTL is counted on the companion's
 * clock (ARGV[2]), like the records'; an expiry already past writes nothing.
 */
export const endConsoleSessionScript = luaScript(`${prelude}
local ttl = math.floor(tonumber(ARGV[4]) - now)
if ttl > 0 then redis.call('SET', p .. 'session-ended:' .. ARGV[3], '1', 'PX', ttl) end
return 0
`);

/** ARGV[3] = console session id. 1 when it was signed out and its expiry has not passed. */
export const isConsoleSessionEndedScript = luaScript(`${prelude}
return redis.call('EXISTS', p .. 'session-ended:' .. ARGV[3])
`);

/**
 * ARGV[3] = id, [4] rawBody, [5] receivedAt, [6] until (epoch ms). 1 when added. A pending entry has
 * no TTL (it must not vanish before it is processed); a done one keeps its TTL until `until`.
 */
export const addToInboxScript = luaScript(`${prelude}
local key = p .. 'inbox:' .. ARGV[3]
local existing = redis.call('HMGET', key, 'done', 'until')
if existing[1] and (existing[1] == '0' or tonumber(existing[2]) > now) then return 0 end
redis.call('DEL', key)
redis.call('HSET', key, 'rawBody', ARGV[4], 'receivedAt', ARGV[5], 'done', '0', 'until', ARGV[6])
redis.call('ZADD', p .. 'inbox-pending', ARGV[5], ARGV[3])
return 1
`);

/** ARGV[3] = limit. Flat list: id, rawBody, receivedAt, ... oldest first. */
export const pendingInboxScript = luaScript(`${prelude}
local limit = tonumber(ARGV[3])
local out = {}
local found, start = 0, 0
while found < limit do
  local ids = redis.call('ZRANGE', p .. 'inbox-pending', start, start + limit - 1)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    local fields = redis.call('HMGET', p .. 'inbox:' .. id, 'rawBody', 'receivedAt', 'done')
    if fields[1] and fields[3] == '0' then
      start = start + 1
      if found < limit then
        out[#out + 1] = id
        out[#out + 1] = fields[1]
        out[#out + 1] = fields[2]
        found = found + 1
      end
    else
      redis.call('ZREM', p .. 'inbox-pending', id)
    end
  end
end
return out
`);

/** ARGV[3] = id. A done entry is only a nonce now: its body is dropped, its TTL runs to `until`. */
export const markInboxDoneScript = luaScript(`${prelude}
local key = p .. 'inbox:' .. ARGV[3]
redis.call('ZREM', p .. 'inbox-pending', ARGV[3])
local untilAt = redis.call('HGET', key, 'until')
if not untilAt then return 0 end
local ttl = math.floor(tonumber(untilAt) - now)
if ttl <= 0 then
  redis.call('DEL', key)
else
  redis.call('HSET', key, 'done', '1', 'rawBody', '')
  redis.call('PEXPIRE', key, ttl)
end
return 1
`);

/** ARGV[3] = at, [4] limit. Order ids, earliest due first. */
export const dueDeliveriesScript = luaScript(`${prelude}
local limit = tonumber(ARGV[4])
local out = {}
local start = 0
while #out < limit do
  local ids = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', ARGV[3], 'LIMIT', start, limit)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    local retainUntil = redis.call('HGET', p .. 'checkout:' .. id, 'retainUntil')
    if not retainUntil then
      redis.call('ZREM', p .. 'due', id)
    else
      start = start + 1
      if tonumber(retainUntil) > now and #out < limit then out[#out + 1] = id end
    end
  end
end
return out
`);

/**
 * ARGV[3] = updatedBefore or '+inf', [4] updatedAfter or '-inf', [5] 'desc' for the newest first,
 * [6] limit, [7..] states. Flat list: updatedAt, record JSON, ... at most `limit` per state, each
 * state's in the asked order (the caller merges them).
 */
export const listPaymentsScript = luaScript(`${prelude}
local limit = tonumber(ARGV[6])
local out = {}
for i = 7, #ARGV do
  local set = p .. 'payments:' .. ARGV[i]
  local found, start = 0, 0
  while found < limit do
    local page
    if ARGV[5] == 'desc' then
      page = redis.call('ZREVRANGEBYSCORE', set, ARGV[3], ARGV[4], 'WITHSCORES', 'LIMIT', start, limit)
    else
      page = redis.call('ZRANGEBYSCORE', set, ARGV[4], ARGV[3], 'WITHSCORES', 'LIMIT', start, limit)
    end
    if #page == 0 then break end
    for j = 1, #page, 2 do
      local fields = redis.call('HMGET', p .. 'checkout:' .. page[j], 'record', 'retainUntil')
      if not fields[1] then
        redis.call('ZREM', set, page[j])
      else
        start = start + 1
        if tonumber(fields[2]) > now and found < limit then
          out[#out + 1] = page[j + 1]
          out[#out + 1] = fields[1]
          found = found + 1
        end
      end
    end
  end
end
return out
`);

/**
 * ARGV[3] = batch size. At most once a minute across every process sharing the prefix: forgets
 * records whose retainUntil has passed (their sorted-set entries, mostly; Redis dropped the keys).
 */
export const sweepScript = luaScript(`${prelude}
if not redis.call('SET', p .. 'sweep', '1', 'NX', 'PX', 60000) then return 0 end
local ids = redis.call('ZRANGEBYSCORE', p .. 'retain', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  if not isLive(id) then forget(id) end
end
return #ids
`);
