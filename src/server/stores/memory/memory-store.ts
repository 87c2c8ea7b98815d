/**
 * One process's memory: for tests, stories and the demo, asked for by name. Nothing survives a
 * restart (use the file store, the default, or Redis). Each method runs to completion without an
 * `await` between its read and its write, which is what makes it atomic in one JavaScript process.
 * Records are copied in and out so a caller cannot change the stored state by mutating a result.
 */
import { nextDeliveryAt, serviceOrderIdsOf, type CheckoutRecord, type InboxEntry } from '../../model/records.js';
import { serviceOrderIdTaken, type CheckoutStore } from '../store.js';

export interface MemoryStoreOptions {
  now?: () => number;
  /**
   * Most checkouts held at once (each ~600 bytes). Default 100,000. When full, the oldest checkout
   * that never started a payment is dropped to make room; when every one has a payment, creating a
   * checkout throws a {@link StoreFullError} rather than forget a payment a webhook may still need.
   */
  maxRecords?: number;
}

/** The memory store is full of checkouts with payments: nothing could be dropped to make room. */
export class StoreFullError extends Error {
  override name = 'StoreFullError';
}

export function createMemoryStore(options: MemoryStoreOptions = {}): CheckoutStore {
  const now = options.now ?? Date.now;
  const maxRecords = options.maxRecords ?? 100_000;
  const byOrderId = new Map<string, CheckoutRecord>();
  /** Order ids of checkouts without a payment, oldest first (what may be dropped when full). */
  const unpaid = new Set<string>();
  const orderIdByTokenHash = new Map<string, string>();
  const orderIdByReturnId = new Map<string, string>();
  const orderIdByServiceOrderId = new Map<string, string>();
  const serviceOrderIdsByOrderId = new Map<string, Set<string>>();
  const locks = new Map<string, { owner: string; until: number }>();
  /** Console sessions signed out before their expiry: session id → that expiry. */
  const endedSessions = new Map<string, number>();
  const inbox = new Map<string, { entry: InboxEntry; done: boolean; until: number }>();

  // Records are plain JSON data: a JSON round trip is a deep copy that also proves the record
  // would survive a persistent store unchanged.
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  const live = (orderId: string | undefined) => {
    if (orderId === undefined) return undefined;
    const record = byOrderId.get(orderId);
    if (!record) return undefined;
    if (record.retainUntil <= now()) {
      forget(record);
      return undefined;
    }
    return record;
  };
  const forget = (record: CheckoutRecord) => {
    byOrderId.delete(record.orderId);
    unpaid.delete(record.orderId);
    orderIdByTokenHash.delete(record.tokenHash);
    orderIdByReturnId.delete(record.returnId);
    for (const serviceOrderId of serviceOrderIdsByOrderId.get(record.orderId) ?? []) {
      // Not one another order took over once this record had expired.
      if (orderIdByServiceOrderId.get(serviceOrderId) === record.orderId) orderIdByServiceOrderId.delete(serviceOrderId);
    }
    serviceOrderIdsByOrderId.delete(record.orderId);
  };
  /** The live order other than `orderId` that `serviceOrderId` belongs to: an attempt's, or a checkout's own id. */
  const otherOwner = (serviceOrderId: string, orderId: string) => {
    const owner = orderIdByServiceOrderId.get(serviceOrderId);
    if (owner !== undefined && owner !== orderId && live(owner)) return owner;
    if (serviceOrderId !== orderId && live(serviceOrderId)) return serviceOrderId;
    return undefined;
  };
  /** Throws unless every id in `serviceOrderIds` is free for `orderId` (none is another live order's). */
  const checkServiceOrderIds = (orderId: string, serviceOrderIds: ReadonlyArray<string | undefined>) => {
    for (const serviceOrderId of serviceOrderIds) {
      const owner = serviceOrderId === undefined ? undefined : otherOwner(serviceOrderId, orderId);
      if (owner !== undefined) throw serviceOrderIdTaken(serviceOrderId!, owner);
    }
  };
  const index = (record: CheckoutRecord) => {
    orderIdByTokenHash.set(record.tokenHash, record.orderId);
    orderIdByReturnId.set(record.returnId, record.orderId);
    for (const serviceOrderId of serviceOrderIdsOf(record)) {
      orderIdByServiceOrderId.set(serviceOrderId, record.orderId);
      let ids = serviceOrderIdsByOrderId.get(record.orderId);
      if (!ids) serviceOrderIdsByOrderId.set(record.orderId, (ids = new Set()));
      ids.add(serviceOrderId);
    }
  };
  // Expired entries are swept on writes, at most once a minute, instead of by a timer, so the
  // store holds no timer that would keep a process alive. (Reads check expiry themselves, so a
  // late sweep is never wrong.)
  let lastSweep = 0;
  const sweep = (force = false) => {
    const at = now();
    if (!force && at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [id, item] of inbox) if (item.done && item.until <= at) inbox.delete(id);
    for (const record of byOrderId.values()) if (record.retainUntil <= at) forget(record);
    for (const [key, lock] of locks) if (lock.until <= at) locks.delete(key);
    for (const [id, expiresAt] of endedSessions) if (expiresAt <= at) endedSessions.delete(id);
  };

  let lastForcedSweep = -Infinity;
  const makeRoom = () => {
    if (byOrderId.size < maxRecords) return;
    // Expired records first (a full sweep at most once a second), then the oldest never paid.
    if (now() - lastForcedSweep >= 1000) {
      lastForcedSweep = now();
      sweep(true);
    }
    while (byOrderId.size >= maxRecords) {
      const oldest = unpaid.values().next();
      if (oldest.done) {
        throw new StoreFullError(
          `The memory store holds ${byOrderId.size} checkouts, all with a payment (maxRecords ${maxRecords}): none is dropped while a notification may still come. Raise maxRecords, or use a persistent store.`,
        );
      }
      const record = byOrderId.get(oldest.value);
      if (record) forget(record);
      else unpaid.delete(oldest.value);
    }
  };

  return {
    kind: 'memory',
    volatileId: randomVolatileId(),
    async createIfAbsent(record) {
      sweep();
      const existing = live(record.orderId);
      if (existing) return { created: false, record: copy(existing) };
      // A new order's id must not be another order's attempt id (its own attempt 1 will be sent under it).
      checkServiceOrderIds(record.orderId, [record.orderId, ...serviceOrderIdsOf(record)]);
      makeRoom();
      byOrderId.set(record.orderId, copy(record));
      if (!record.payment) unpaid.add(record.orderId);
      index(record);
      return { created: true, record: copy(record) };
    },
    async getByOrderId(orderId) {
      const record = live(orderId);
      return record && copy(record);
    },
    async getByTokenHash(tokenHash) {
      const record = live(orderIdByTokenHash.get(tokenHash));
      return record && copy(record);
    },
    async getByReturnId(returnId) {
      const record = live(orderIdByReturnId.get(returnId));
      return record && copy(record);
    },
    async getByServiceOrderId(serviceOrderId) {
      const record = live(orderIdByServiceOrderId.get(serviceOrderId));
      return record && copy(record);
    },
    async compareAndSet(orderId, expectedRevision, next) {
      sweep();
      const current = live(orderId);
      if (!current || current.revision !== expectedRevision) return false;
      checkServiceOrderIds(orderId, serviceOrderIdsOf(next));
      byOrderId.set(orderId, copy(next));
      if (next.payment) unpaid.delete(orderId);
      index(next);
      return true;
    },
    async claimLock(key, owner, ttlMs) {
      const held = locks.get(key);
      if (held !== undefined && held.until > now() && held.owner !== owner) return false;
      locks.set(key, { owner, until: now() + ttlMs });
      return true;
    },
    async releaseLock(key, owner) {
      if (locks.get(key)?.owner === owner) locks.delete(key);
    },
    async endConsoleSession(sessionId, expiresAt) {
      sweep();
      endedSessions.set(sessionId, expiresAt);
    },
    async isConsoleSessionEnded(sessionId) {
      return (endedSessions.get(sessionId) ?? 0) > now();
    },
    async addToInbox(entry, ttlMs) {
      sweep();
      const existing = inbox.get(entry.id);
      if (existing && (!existing.done || existing.until > now())) return false;
      inbox.set(entry.id, { entry: copy(entry), done: false, until: now() + ttlMs });
      return true;
    },
    async pendingInbox(limit) {
      const pending = [...inbox.values()].filter((item) => !item.done).map((item) => copy(item.entry));
      return pending.sort((a, b) => a.receivedAt - b.receivedAt).slice(0, limit);
    },
    async markInboxDone(id) {
      const item = inbox.get(id);
      if (item) item.done = true;
    },
    async dueDeliveries(at, limit) {
      const due: Array<{ orderId: string; at: number }> = [];
      for (const record of byOrderId.values()) {
        const next = nextDeliveryAt(record);
        if (next !== null && next <= at && live(record.orderId)) due.push({ orderId: record.orderId, at: next });
      }
      return due.sort((a, b) => a.at - b.at).slice(0, limit).map((item) => item.orderId);
    },
    async listPayments(query) {
      const found: CheckoutRecord[] = [];
      for (const record of byOrderId.values()) {
        const payment = record.payment;
        if (!payment || !live(record.orderId)) continue;
        if (query.states && !query.states.includes(payment.state)) continue;
        if (query.updatedBefore !== undefined && payment.updatedAt > query.updatedBefore) continue;
        if (query.updatedAfter !== undefined && payment.updatedAt < query.updatedAfter) continue;
        found.push(record);
      }
      const direction = query.newestFirst ? -1 : 1;
      found.sort((a, b) => direction * (a.payment!.updatedAt - b.payment!.updatedAt));
      return found.slice(0, query.limit ?? 100).map(copy);
    },
    async ping() {},
  };
}

function randomVolatileId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
