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
  const payInLocks = new Map<string, number>();
  const nonces = new Map<string, number>();
  let writes = 0;

  const copy = (record: CheckoutRecord): CheckoutRecord => structuredClone(record);
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
    for (const [serviceOrderId, orderId] of orderIdByServiceOrderId) {
      if (orderId === record.orderId) orderIdByServiceOrderId.delete(serviceOrderId);
    }
  };
  const index = (record: CheckoutRecord) => {
    orderIdByTokenHash.set(record.tokenHash, record.orderId);
    orderIdByReturnId.set(record.returnId, record.orderId);
    if (record.payment) orderIdByServiceOrderId.set(record.payment.serviceOrderId, record.orderId);
  };
  // Expired nonces and checkouts are swept every so many writes instead of by a timer, so the
  // store holds no timer that would keep a process alive.
  const sweep = () => {
    if (++writes % 500 !== 0) return;
    const at = now();
    for (const [nonce, until] of nonces) if (until <= at) nonces.delete(nonce);
    for (const entry of byOrderId.values()) if (entry.expiresAt <= at) forget(entry.record);
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
