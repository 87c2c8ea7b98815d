/**
 * The Redis store's payment links (stores/link-store.ts): each link a hash `<p>link:<linkId>`
 * (`record`, `revision`, `retainUntil`) that expires at its `retainUntil` (a TTL computed on the
 * companion's clock), and the list's index `<p>links`, a sorted set by creation time (members of
 * one millisecond ordered by their bytes: the link id). Every write is one Lua script, which Redis
 * runs alone: two processes claiming one single-use link cannot both write its next revision.
 */
import type { LinkRecord } from '../../model/link.js';
import type { LinkStore } from '../link-store.js';
import { luaScript, runScript, type AnyRedisClient } from './redis-client.js';

const linkPrelude = `
local p = ARGV[1]
local now = tonumber(ARGV[2])
local function live(linkId)
  local fields = redis.call('HMGET', p .. 'link:' .. linkId, 'record', 'revision', 'retainUntil')
  if fields[1] and tonumber(fields[3]) > now then return fields end
  return nil
end
local function write(linkId, record, revision, retainUntil)
  local key = p .. 'link:' .. linkId
  redis.call('HSET', key, 'record', record, 'revision', revision, 'retainUntil', retainUntil)
  redis.call('PEXPIRE', key, math.max(1, tonumber(retainUntil) - now))
end
`;

/** ARGV[3] link id, [4] record, [5] revision, [6] retainUntil, [7] createdAt. {1} created, {0, record} when live. */
const createLinkScript = luaScript(`${linkPrelude}
local found = live(ARGV[3])
if found then return {0, found[1]} end
write(ARGV[3], ARGV[4], ARGV[5], ARGV[6])
redis.call('ZADD', p .. 'links', tonumber(ARGV[7]), ARGV[3])
return {1}
`);

/** ARGV[3] link id. The record, or false. */
const getLinkScript = luaScript(`${linkPrelude}
local found = live(ARGV[3])
if found then return found[1] end
return false
`);

/** ARGV[3] link id, [4] record, [5] revision, [6] retainUntil, [7] expected revision. 1 written, 0 stale or absent. */
const compareAndSetLinkScript = luaScript(`${linkPrelude}
local found = live(ARGV[3])
if not found or tonumber(found[2]) ~= tonumber(ARGV[7]) then return 0 end
write(ARGV[3], ARGV[4], ARGV[5], ARGV[6])
return 1
`);

/**
 * ARGV[3] the cursor's createdAt ('+inf' for none), [4] its link id ('' for none), [5] limit.
 * Records newest first; an index entry whose link expired is removed on the way.
 */
const listLinksScript = luaScript(`${linkPrelude}
local set = p .. 'links'
local beforeId, limit = ARGV[4], tonumber(ARGV[5])
local out = {}
local start = 0
while #out < limit do
  local page = redis.call('ZREVRANGEBYSCORE', set, ARGV[3], '-inf', 'WITHSCORES', 'LIMIT', start, limit)
  if #page == 0 then break end
  for j = 1, #page, 2 do
    local linkId, createdAt = page[j], page[j + 1]
    local found = live(linkId)
    if not found then
      redis.call('ZREM', set, linkId)
    else
      start = start + 1
      local past = beforeId == '' or ARGV[3] == '+inf' or tonumber(createdAt) < tonumber(ARGV[3]) or linkId < beforeId
      if past and #out < limit then out[#out + 1] = found[1] end
    end
  end
end
return out
`);

export function createRedisLinks(client: AnyRedisClient, prefix: string, now: () => number): LinkStore {
  const run = (script: ReturnType<typeof luaScript>, ...args: Array<string | number>) => runScript(client, script, [prefix, now(), ...args]);
  const parse = (json: unknown) => JSON.parse(String(json)) as LinkRecord;
  return {
    async createLinkIfAbsent(link) {
      const [outcome, stored] = (await run(createLinkScript, link.linkId, JSON.stringify(link), link.revision, link.retainUntil, link.createdAt)) as [number, string?];
      return outcome === 1 ? { created: true, link: parse(JSON.stringify(link)) } : { created: false, link: parse(stored) };
    },
    async getLink(linkId) {
      const found = await run(getLinkScript, linkId);
      return typeof found === 'string' ? parse(found) : undefined;
    },
    async compareAndSetLink(linkId, expectedRevision, next) {
      if (next.linkId !== linkId) throw new TypeError(`compareAndSetLink(${linkId}) was given link ${next.linkId}`);
      return (await run(compareAndSetLinkScript, linkId, JSON.stringify(next), next.revision, next.retainUntil, expectedRevision)) === 1;
    },
    async listLinks({ before, limit }) {
      if (limit <= 0) return [];
      return ((await run(listLinksScript, before?.createdAt ?? '+inf', before?.linkId ?? '', limit)) as string[]).map(parse);
    },
  };
}
