/**
 * The default store: one process's memory. Each method runs to completion without an `await`
 * between its read and its write, which is what makes it atomic in one JavaScript process.
 * Records are copied in and out so a caller cannot change the stored state by mutating a result.
 */
import type { CheckoutRecord } from './records.js';
import type { CheckoutStore } from './store.js';

export interface MemoryStoreOptions {
  now?: () => number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): CheckoutStore {
  const now = options.now ?? Date.now;
  const byOrderId = new Map<string, { record: CheckoutRecord; expiresAt: number }>();
  const orderIdByTokenHash = new Map<string, string>();
  const orderIdByReturnId = new Map<string, string>();
  const orderIdByServiceOrderId = new Map<string, string>();
  const serviceOrderIdsByOrderId = new Map<string, Set<string>>();
  const payInLocks = new Map<string, number>();
  const nonces = new Map<string, number>();

  // Records are plain data two levels deep: a spread copy is many times cheaper than
  // structuredClone on the webhook's hot path.
  const copy = (record: CheckoutRecord): CheckoutRecord => ({
    ...record,
    payment: record.payment && { ...record.payment, operator: record.payment.operator && { ...record.payment.operator } },
  });
  const live = (orderId: string | undefined) => {
    if (orderId === undefined) return undefined;
    const entry = byOrderId.get(orderId);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      forget(entry.record);
      return undefined;
    }
    return entry;
  };
  const forget = (record: CheckoutRecord) => {
    byOrderId.delete(record.orderId);
    orderIdByTokenHash.delete(record.tokenHash);
    orderIdByReturnId.delete(record.returnId);
    for (const serviceOrderId of serviceOrderIdsByOrderId.get(record.orderId) ?? []) orderIdByServiceOrderId.delete(serviceOrderId);
    serviceOrderIdsByOrderId.delete(record.orderId);
  };
  const index = (record: CheckoutRecord) => {
    orderIdByTokenHash.set(record.tokenHash, record.orderId);
    orderIdByReturnId.set(record.returnId, record.orderId);
    if (record.payment) {
      orderIdByServiceOrderId.set(record.payment.serviceOrderId, record.orderId);
      let ids = serviceOrderIdsByOrderId.get(record.orderId);
      if (!ids) serviceOrderIdsByOrderId.set(record.orderId, (ids = new Set()));
      ids.add(record.payment.serviceOrderId);
    }
  };
  // Expired nonces and checkouts are swept on writes instead of by a timer, so the store holds no
  // timer that would keep a process alive. Maps iterate in insertion order and each kind of entry
  // has one lifetime, so the oldest entries come first: the sweep stops at the first live one and
  // costs only what it removes. (Reads check expiry themselves, so a late sweep is never wrong.)
  const sweep = () => {
    const at = now();
    for (const [nonce, until] of nonces) {
      if (until > at) break;
      nonces.delete(nonce);
    }
    for (const entry of byOrderId.values()) {
      if (entry.expiresAt > at) break;
      forget(entry.record);
    }
  };

  return {
    async createIfAbsent(record, ttlMs) {
      sweep();
      const existing = live(record.orderId);
      if (existing) return { created: false, record: copy(existing.record) };
      byOrderId.set(record.orderId, { record: copy(record), expiresAt: now() + ttlMs });
      index(record);
      return { created: true, record: copy(record) };
    },
    async getByOrderId(orderId) {
      const entry = live(orderId);
      return entry && copy(entry.record);
    },
    async getByTokenHash(tokenHash) {
      const entry = live(orderIdByTokenHash.get(tokenHash));
      return entry && copy(entry.record);
    },
    async getByReturnId(returnId) {
      const entry = live(orderIdByReturnId.get(returnId));
      return entry && copy(entry.record);
    },
    async getByServiceOrderId(serviceOrderId) {
      const entry = live(orderIdByServiceOrderId.get(serviceOrderId));
      return entry && copy(entry.record);
    },
    async compareAndSet(orderId, expectedRevision, next) {
      sweep();
      const entry = live(orderId);
      if (!entry || entry.record.revision !== expectedRevision) return false;
      entry.record = copy(next);
      index(next);
      return true;
    },
    async claimPayIn(orderId, ttlMs) {
      const until = payInLocks.get(orderId);
      if (until !== undefined && until > now()) return false;
      payInLocks.set(orderId, now() + ttlMs);
      return true;
    },
    async releasePayIn(orderId) {
      payInLocks.delete(orderId);
    },
    async markNonceSeen(nonce, ttlMs) {
      sweep();
      const until = nonces.get(nonce);
      if (until !== undefined && until > now()) return false;
      nonces.set(nonce, now() + ttlMs);
      return true;
    },
  };
}
