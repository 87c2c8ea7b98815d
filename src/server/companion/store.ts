/**
 * The companion's storage interface. Every method is async and every write that races is atomic,
 * so the same interface fits the in-memory default, a persistent store, and a shared one (Redis:
 * `SET NX`, `WATCH`/`MULTI` or a Lua script for the compare-and-set) when a merchant runs several
 * processes.
 */
import type { CheckoutRecord } from './records.js';

export interface CheckoutStore {
  /**
   * Stores `record` unless a checkout exists for its `orderId`; returns the stored one either way
   * (atomic: two concurrent creations of one order store one record).
   */
  createIfAbsent(record: CheckoutRecord, ttlMs: number): Promise<{ created: boolean; record: CheckoutRecord }>;
  getByOrderId(orderId: string): Promise<CheckoutRecord | undefined>;
  getByTokenHash(tokenHash: string): Promise<CheckoutRecord | undefined>;
  getByReturnId(returnId: string): Promise<CheckoutRecord | undefined>;
  /** The checkout whose payment attempt was sent to the service under `serviceOrderId`. */
  getByServiceOrderId(serviceOrderId: string): Promise<CheckoutRecord | undefined>;
  /**
   * Replaces the record if its `revision` is still `expectedRevision` (the caller sets the new
   * revision). Returns false when another writer came first: re-read and retry.
   */
  compareAndSet(orderId: string, expectedRevision: number, next: CheckoutRecord): Promise<boolean>;
  /** Takes the "one pay-in in flight" lock of a checkout. False if someone holds it. */
  claimPayIn(orderId: string, ttlMs: number): Promise<boolean>;
  releasePayIn(orderId: string): Promise<void>;
  /** True the first time a webhook `_nonce` is seen within `ttlMs` (duplicate detection). */
  markNonceSeen(nonce: string, ttlMs: number): Promise<boolean>;
  /** Frees timers and connections. */
  close?(): Promise<void>;
}

/**
 * Applies `change` to the checkout atomically: reads, computes, compare-and-sets, and retries when
 * another writer came first. `change` returns null to leave the record as it is.
 */
export async function transitionCheckout(
  store: CheckoutStore,
  orderId: string,
  change: (current: CheckoutRecord) => CheckoutRecord | null,
): Promise<{ changed: boolean; record: CheckoutRecord | undefined; previous: CheckoutRecord | undefined }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const current = await store.getByOrderId(orderId);
    if (!current) return { changed: false, record: undefined, previous: undefined };
    const proposed = change(current);
    if (!proposed) return { changed: false, record: current, previous: current };
    const next = { ...proposed, revision: current.revision + 1 };
    if (await store.compareAndSet(orderId, current.revision, next)) return { changed: true, record: next, previous: current };
  }
  throw new Error(`transitionCheckout: too much contention on order ${orderId}`);
}
