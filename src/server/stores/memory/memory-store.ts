/**
 * One process's memory: for tests, stories and the demo, asked for by name. Nothing survives a
 * restart (use the file store, the default, or Redis). Each method runs to completion without an
 * `await` between its read and its write, which is what makes it atomic in one JavaScript process.
 * Records are kept deeply frozen and handed out as they are (frozen-data.ts says why, and how it
 * keeps them plain JSON data): a caller that would change one builds a new object instead.
 *
 * The checkout records and their registries are memory-checkouts.ts; this file adds what lives
 * beside them (the locks, the signed-out console sessions, the inbox) and the sweep of them all.
 */
import { serviceOrderIdsOf, type CheckoutRecord, type InboxEntry } from '../../model/records.js';
import { countPaymentsOf } from '../../model/support.js';
import type { CheckoutStore } from '../store.js';
import { freezeJsonData } from './frozen-data.js';
import { MemoryCheckouts } from './memory-checkouts.js';
import { createMemoryLinks } from './memory-links.js';

export { StoreFullError } from './memory-checkouts.js';

export interface MemoryStoreOptions {
  now?: () => number;
  /**
   * Most checkouts held at once (each ~600 bytes). Default 100,000. When full, the oldest checkout
   * that never started a payment is dropped to make room; when every one has a payment, creating a
   * checkout throws a {@link StoreFullError} rather than forget a payment a webhook may still need.
   */
  maxRecords?: number;
}

/** A record as the store keeps it: the caller's object, deeply frozen (frozen-data.ts). */
const toStore = (record: CheckoutRecord): CheckoutRecord => freezeJsonData(record, 'the checkout record');

export function createMemoryStore(options: MemoryStoreOptions = {}): CheckoutStore {
  const now = options.now ?? Date.now;
  const checkouts = new MemoryCheckouts(now, options.maxRecords ?? 100_000);
  const locks = new Map<string, { owner: string; until: number }>();
  /** Console sessions signed out before their expiry: session id → that expiry. */
  const endedSessions = new Map<string, number>();
  const inbox = new Map<string, { entry: InboxEntry; done: boolean; until: number }>();
  const links = createMemoryLinks(now);

  // Expired entries are swept on writes, at most once a minute, instead of by a timer, so the
  // store holds no timer that would keep a process alive. (Reads check expiry themselves, so a
  // late sweep is never wrong.)
  let lastSweep = 0;
  const sweep = (force = false) => {
    const at = now();
    if (!force && at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [id, item] of inbox) if (item.done && item.until <= at) inbox.delete(id);
    checkouts.sweep(at);
    for (const [key, lock] of locks) if (lock.until <= at) locks.delete(key);
    for (const [id, expiresAt] of endedSessions) if (expiresAt <= at) endedSessions.delete(id);
    links.sweep(at);
  };

  return {
    kind: 'memory',
    volatileId: randomVolatileId(),
    links,
    async createIfAbsent(record) {
      sweep();
      const existing = checkouts.live(record.orderId);
      if (existing) return { created: false, record: existing };
      // A new order's id must not be another order's attempt id (its own attempt 1 will be sent under it).
      checkouts.checkServiceOrderIds(record.orderId, [record.orderId, ...serviceOrderIdsOf(record)]);
      checkouts.makeRoom(() => sweep(true));
      const stored = toStore(record);
      checkouts.add(stored);
      return { created: true, record: stored };
    },
    async getByOrderId(orderId) {
      return checkouts.live(orderId);
    },
    async getByTokenHash(tokenHash) {
      return checkouts.byTokenHash(tokenHash);
    },
    async getByReturnId(returnId) {
      return checkouts.byReturnId(returnId);
    },
    async getByServiceOrderId(serviceOrderId) {
      return checkouts.byServiceOrderId(serviceOrderId);
    },
    async compareAndSet(orderId, expectedRevision, next) {
      sweep();
      const current = checkouts.live(orderId);
      if (!current || current.revision !== expectedRevision) return false;
      checkouts.checkServiceOrderIds(orderId, serviceOrderIdsOf(next));
      checkouts.replace(orderId, toStore(next));
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
    async renewLock(key, owner, ttlMs) {
      const held = locks.get(key);
      if (held === undefined || held.owner !== owner || held.until <= now()) return false;
      held.until = now() + ttlMs;
      return true;
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
      // An entry's fields are strings and a number: a spread is a whole copy.
      inbox.set(entry.id, { entry: { ...entry }, done: false, until: now() + ttlMs });
      return true;
    },
    async pendingInbox(limit) {
      const pending = [...inbox.values()].filter((item) => !item.done).map((item) => ({ ...item.entry }));
      return pending.sort((a, b) => a.receivedAt - b.receivedAt).slice(0, limit);
    },
    async markInboxDone(id) {
      const item = inbox.get(id);
      if (item) item.done = true;
    },
    async dueDeliveries(at, limit) {
      return checkouts.dueDeliveries(at, limit);
    },
    async listPayments(query) {
      return checkouts.payments(query);
    },
    async listPaymentsCreated(page) {
      return checkouts.paymentsCreated(page);
    },
    async listNeedingSupport() {
      return checkouts.needingSupport();
    },
    async countPayments(from, to) {
      return countPaymentsOf(checkouts.paymentsChangedBetween(from, to), from, to);
    },
    async ping() {},
  };
}

function randomVolatileId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
