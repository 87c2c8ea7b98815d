/**
 * Part `stores/redis/`: the Redis store, its scripts, client, limits and status hub. May import
 * stores/, status/, model/ and the foundation.
 *
 * The shared store: Redis, for a companion running in several processes or hosts (set
 * `MOMO_REDIS_URL`). Every write that races is one Lua script (redis-scripts.ts), which Redis runs
 * alone, so two processes creating the same order, or writing the same revision, cannot both win.
 *
 * Client: the official `redis` package (node-redis), chosen over ioredis because it is Redis's own
 * client, maintained by Redis with the server's new commands and RESP3, while ioredis is in
 * maintenance mode.
 *
 * Expiry follows each record's `retainUntil` through Redis TTLs (`retainUntil - now`, computed on
 * the companion's clock so a Redis host with a skewed clock does not shorten it); sorted-set index
 * entries are cleaned when a read meets one whose record is gone, and by a sweep at most once a
 * minute. Locks are `SET NX PX` with an owner-checked release, and a pending inbox entry has no TTL:
 * a notification kept before answering the service (sent once, never retried) must not expire
 * before it is processed.
 *
 * Durability is the Redis server's: run it with `appendonly yes` (`appendfsync always` loses no
 * acknowledged notification to a crash; the default `everysec`, up to a second of them). Keys are
 * built inside the scripts, so this needs one Redis (or a primary with replicas), not Redis Cluster.
 */
import { createLogger, type Logger } from '../../log.js';
import { nextDeliveryAt, serviceOrderIdsOf, type CheckoutRecord, type InboxEntry } from '../../model/records.js';
import { closeRedis, connectRedis, describeRedisUrl, pingRedis, runScript, type AnyRedisClient, type LuaScript } from './redis-client.js';
import { createRedisLimits } from './redis-limits.js';
import { createRedisLinks } from './redis-links.js';
import * as scripts from './redis-scripts.js';
import { fillSupportViews } from './redis-support-fill.js';
import * as supportScripts from './redis-support-scripts.js';
import { fillCreatedIndex, listPaymentsCreatedScript } from './redis-created-index.js';
import { operatorName, supportSince, type PaymentCount } from '../../model/support.js';
import type { PaymentState } from '../../../contract/companion.js';
import { serviceOrderIdTaken, type CheckoutStore } from '../store.js';
import { defaultPaymentListLimit } from '../../model/option-defaults.js';

export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]` (`rediss://` for TLS). Ignored when `client` is given. */
  url?: string;
  /** Prefix of every key (default `momo:`): one Redis can hold several companions' data apart. */
  keyPrefix?: string;
  /** A connected node-redis client to use instead of opening one; `close()` leaves it open. */
  client?: AnyRedisClient;
  /** The companion's clock (tests inject one). Default `Date.now`. */
  now?: () => number;
  log?: Logger;
}

const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 500;

/**
 * @example
 * const store = await createRedisStore({ url: process.env.MOMO_REDIS_URL! });
 * const momo = createCompanion({ ...options, store });
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<CheckoutStore> {
  const now = options.now ?? Date.now;
  const log = options.log ?? createLogger();
  const prefix = options.keyPrefix ?? 'momo:';
  const ownsClient = options.client === undefined;
  if (ownsClient && !options.url) throw new TypeError('createRedisStore needs `url` (for example process.env.MOMO_REDIS_URL) or a connected `client`.');
  const client = options.client ?? (await connectRedis(options.url!, log));
  const where = options.url ? describeRedisUrl(options.url) : 'the given client';
  const filled = await fillSupportViews(client, prefix, now);
  if (filled > 0) log.info('redis store: support views filled from the records written before them', { records: filled });
  const indexed = await fillCreatedIndex(client, prefix);
  if (indexed > 0) log.info("redis store: the export's index filled from the payments written before it", { records: indexed });

  const run = (script: LuaScript, ...args: Array<string | number>) => runScript(client, script, [prefix, now(), ...args]);
  const parse = (json: unknown) => (typeof json === 'string' ? (JSON.parse(json) as CheckoutRecord) : undefined);

  const recordArgs = (record: CheckoutRecord) => [
    record.orderId,
    JSON.stringify(record),
    record.revision,
    record.retainUntil,
    record.tokenHash,
    record.returnId,
    JSON.stringify(serviceOrderIdsOf(record)),
    record.payment?.state ?? '',
    record.payment?.updatedAt ?? '',
    nextDeliveryAt(record) ?? '',
    record.payment ? operatorName(record.payment) : '',
    supportSince(record) ?? '',
    record.createdAt,
  ];

  // Expired records' sorted-set entries are swept on writes, at most once a minute (the script
  // coordinates processes), instead of by a timer that would keep the process alive.
  let lastSweep = 0;
  const sweep = async () => {
    if (now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now();
    try {
      await run(scripts.sweepScript, SWEEP_BATCH);
    } catch (error) {
      log.warn('redis store sweep failed; it is retried a minute later', { error: error instanceof Error ? error.message : String(error) });
    }
  };

  return {
    kind: 'redis',
    // Every process on this store counts against one limit (redis-limits.ts).
    limits: createRedisLimits(client, prefix, now),
    links: createRedisLinks(client, prefix, now),
    async createIfAbsent(record) {
      const [outcome, detail, taken] = (await run(scripts.createIfAbsentScript, ...recordArgs(record))) as [number, string?, string?];
      if (outcome === -1) throw serviceOrderIdTaken(taken!, detail!);
      await sweep();
      if (outcome === 1) return { created: true, record: JSON.parse(JSON.stringify(record)) as CheckoutRecord };
      return { created: false, record: parse(detail)! };
    },
    async getByOrderId(orderId) {
      return parse(await run(scripts.getByOrderIdScript, orderId));
    },
    async getByTokenHash(tokenHash) {
      return parse(await run(scripts.getByIndexScript, 'token', tokenHash));
    },
    async getByReturnId(returnId) {
      return parse(await run(scripts.getByIndexScript, 'return', returnId));
    },
    async getByServiceOrderId(serviceOrderId) {
      return parse(await run(scripts.getByIndexScript, 'service', serviceOrderId));
    },
    async compareAndSet(orderId, expectedRevision, next) {
      if (next.orderId !== orderId) throw new TypeError(`compareAndSet(${orderId}) was given the record of order ${next.orderId}`);
      const [outcome, owner, taken] = (await run(scripts.compareAndSetScript, ...recordArgs(next), expectedRevision)) as [number, string?, string?];
      if (outcome === -1) throw serviceOrderIdTaken(taken!, owner!);
      await sweep();
      return outcome === 1;
    },
    async claimLock(key, owner, ttlMs) {
      return (await run(scripts.claimLockScript, key, owner, Math.max(1, Math.ceil(ttlMs)))) === 1;
    },
    async releaseLock(key, owner) {
      await run(scripts.releaseLockScript, key, owner);
    },
    async renewLock(key, owner, ttlMs) {
      return (await run(scripts.renewLockScript, key, owner, Math.max(1, Math.ceil(ttlMs)))) === 1;
    },
    async endConsoleSession(sessionId, expiresAt) {
      await run(scripts.endConsoleSessionScript, sessionId, expiresAt);
    },
    async isConsoleSessionEnded(sessionId) {
      return (await run(scripts.isConsoleSessionEndedScript, sessionId)) === 1;
    },
    async addToInbox(entry, ttlMs) {
      return (await run(scripts.addToInboxScript, entry.id, entry.rawBody, entry.receivedAt, now() + ttlMs)) === 1;
    },
    async pendingInbox(limit) {
      const flat = (await run(scripts.pendingInboxScript, limit)) as string[];
      const entries: InboxEntry[] = [];
      for (let i = 0; i + 2 < flat.length; i += 3) entries.push({ id: flat[i]!, rawBody: flat[i + 1]!, receivedAt: Number(flat[i + 2]) });
      return entries;
    },
    async markInboxDone(id) {
      await run(scripts.markInboxDoneScript, id);
    },
    async dueDeliveries(at, limit) {
      return (await run(scripts.dueDeliveriesScript, at, limit)) as string[];
    },
    async listPayments(query) {
      const limit = query.limit ?? defaultPaymentListLimit;
      if (limit <= 0) return [];
      const states = query.states ?? scripts.paymentStates;
      if (states.length === 0) return [];
      const order = query.newestFirst ? 'desc' : 'asc';
      const flat = (await run(scripts.listPaymentsScript, query.updatedBefore ?? '+inf', query.updatedAfter ?? '-inf', order, limit, ...states)) as string[];
      const found: Array<{ updatedAt: number; record: CheckoutRecord }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) found.push({ updatedAt: Number(flat[i]), record: parse(flat[i + 1])! });
      // Each state's list came in the asked order; merged here (Array.sort is stable).
      const direction = query.newestFirst ? -1 : 1;
      found.sort((a, b) => direction * (a.updatedAt - b.updatedAt));
      return found.slice(0, limit).map((item) => item.record);
    },
    async listPaymentsCreated(page) {
      const after = page.after ?? { createdAt: page.from, orderId: '' };
      return ((await run(listPaymentsCreatedScript, page.from, page.to, after.createdAt, after.orderId, page.limit)) as string[]).map((json) => parse(json)!);
    },
    async listNeedingSupport() {
      return ((await run(supportScripts.listNeedingSupportScript)) as string[]).map((json) => parse(json)!);
    },
    async countPayments(from, to) {
      const flat = (await run(supportScripts.countPaymentsScript, from, to)) as Array<string | number>;
      const counts: PaymentCount[] = [];
      for (let i = 0; i + 2 < flat.length; i += 3) counts.push({ operator: String(flat[i]), state: flat[i + 1] as PaymentState, count: Number(flat[i + 2]) });
      return counts;
    },
    async ping() {
      await pingRedis(client, where);
    },
    async probeWrite() {
      // Refused by a Redis that cannot persist (MISCONF), is out of memory (OOM) or is a replica (READONLY).
      await client.set(`${prefix}probe:write`, String(now()), { PX: 1_000 });
    },
    async close() {
      if (ownsClient) await closeRedis(client);
    },
  };
}
