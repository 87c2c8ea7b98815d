/**
 * Part `stores/` (docs/architecture.md): the store interface, its contract suite, the memory store,
 * the store chosen from the environment, the limits a shared store counts; sqlite/, redis/ and
 * postgres/ are the durable ones. May import model/ and the foundation;
 * never payments, routes or the composition root.
 *
 * The companion's storage interface. Every method is async and every write that races is atomic,
 * so the same interface fits the in-memory store (tests, demo), the embedded file store (the
 * default: SQLite) and the shared ones (PostgreSQL, Redis) when a merchant runs several processes.
 *
 * A store must pass the contract suite exported as `momo-checkout/store-contract`.
 */
import type { PaymentState } from '../../contract/companion.js';
import type { LimitBackend } from './limit-backend.js';
import type { LinkStore } from './link-store.js';
import type { CheckoutRecord, InboxEntry } from '../model/records.js';
import type { PaymentCount } from '../model/support.js';

export type { PaymentCount };

export interface PaymentQuery {
  /** Only payments in one of these states (default: any state). */
  states?: readonly PaymentState[];
  /** Only payments whose last change (`payment.updatedAt`) is at or before this epoch ms. */
  updatedBefore?: number;
  /** Only payments whose last change is at or after this epoch ms (the console's last 24 hours). */
  updatedAfter?: number;
  /** The most recent change first (the console's list); default the oldest first. */
  newestFirst?: boolean;
  /** At most this many (default 100). */
  limit?: number;
}

/**
 * A page of payments by creation time (store.ts `listPaymentsCreated`): the checkouts with a payment
 * created in [`from`, `to`), in the order of (`createdAt`, `orderId`), after `after` when given.
 */
export interface CreatedPaymentsPage {
  /** Epoch ms, included. */
  from: number;
  /** Epoch ms, excluded. */
  to: number;
  /** The last record of the previous page: this page starts right after it (the cursor). */
  after?: { createdAt: number; orderId: string };
  /** At most this many. */
  limit: number;
}

export interface CheckoutStore {
  /** `memory`, `file`, `redis` or `postgres` for the shipped stores (what the start-up and doctor checks read). */
  readonly kind?: string;
  /**
   * Set by a store that forgets everything when its process ends (the memory store): an id of this
   * store's life, random at its creation. What is bound to it ends with it: a console session, whose
   * sign-out such a store could not remember after a restart.
   */
  readonly volatileId?: string;
  /**
   * How many read-decide-write sequences (a notification applied, its delivery recorded) this store
   * serves well at once in one process: a pooled store's connections, or, for a store that commits
   * what is asked in one turn together, as many as make its batches worth it. A process applies at
   * most this many notifications at once, the rest in arrival order behind them. Default 8.
   */
  readonly writersAtOnce?: number;
  /**
   * Where a store shared by several processes keeps the page routes' limits, so that they hold for
   * all of them together (the Redis and Postgres stores have it). Absent: each process counts in its own memory.
   */
  readonly limits?: LimitBackend;
  /**
   * The payment links (link-store.ts), kept by the same engine. Every shipped store has them; a
   * store of your own may leave them out, and then the companion offers no links.
   */
  readonly links?: LinkStore;
  /**
   * Stores `record` unless a checkout exists for its `orderId`; returns the stored one either way
   * (atomic: two concurrent creations of one order store one record). Kept until `record.retainUntil`.
   *
   * Throws a {@link StoreConflictError} when `record.orderId` is already a service order id of
   * another live order (one of its attempts was sent under it): the service would match the two.
   */
  createIfAbsent(record: CheckoutRecord): Promise<{ created: boolean; record: CheckoutRecord }>;
  getByOrderId(orderId: string): Promise<CheckoutRecord | undefined>;
  getByTokenHash(tokenHash: string): Promise<CheckoutRecord | undefined>;
  getByReturnId(returnId: string): Promise<CheckoutRecord | undefined>;
  /** The checkout whose payment attempt was sent to the service under `serviceOrderId`. */
  getByServiceOrderId(serviceOrderId: string): Promise<CheckoutRecord | undefined>;
  /**
   * Replaces the record if its `revision` is still `expectedRevision` (the caller sets the new
   * revision), and keeps it until `next.retainUntil`. Returns false when another writer came
   * first: re-read and retry.
   *
   * The store is the registry of service order ids: one, once indexed for an order, belongs to it
   * for the record's lifetime, and a live checkout's order id is its own (its attempt 1). A write
   * whose payment's service order id is another order's, either way, throws a
   * {@link StoreConflictError} and changes nothing (a payment must never be matched to the wrong
   * order); the check and the write are one atomic step, across processes.
   */
  compareAndSet(orderId: string, expectedRevision: number, next: CheckoutRecord): Promise<boolean>;
  /**
   * Takes a named lock (`pay:<orderId>`, `deliver:<orderId>`) for `owner` until `ttlMs` has passed
   * or the owner releases it. False if another owner holds it.
   */
  claimLock(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock if `owner` still holds it (a lock taken over after its ttl is not released). */
  releaseLock(key: string, owner: string): Promise<void>;
  /**
   * Extends the lock to `ttlMs` from now if `owner` holds it now (its ttl has not passed); false
   * otherwise, and then nothing is written (a lapsed lock is never taken back by its old owner).
   * With it, a holder keeps a short lease alive while it works (stores/lock-lease.ts), so the lock
   * of a process that died is free again within seconds. A store of your own may leave it out:
   * its locks are then taken for their whole ttl (a minute for a pay), as before.
   */
  renewLock?(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /**
   * Keeps a verified notification before the webhook route answers. False when an entry with this
   * id was added within `ttlMs` (a duplicate: done or not, it is not kept twice).
   */
  addToInbox(entry: InboxEntry, ttlMs: number): Promise<boolean>;
  /** Entries not yet marked done, oldest first. */
  pendingInbox(limit: number): Promise<InboxEntry[]>;
  /** Processed: no longer pending, still known as seen until its ttl. */
  markInboxDone(id: string): Promise<void>;
  /**
   * Order ids of records with a delivery due at or before `at` (see `nextDeliveryAt` in
   * records.ts), earliest first.
   */
  dueDeliveries(at: number, limit: number): Promise<string[]>;
  /**
   * Checkouts that have a payment, filtered by `query`, the oldest change first (or the newest with
   * `newestFirst`). Indexed by state and time of the last change in the durable stores: a page of
   * the console reads a page of records, not every one.
   */
  listPayments(query: PaymentQuery): Promise<CheckoutRecord[]>;
  /**
   * A page of the live checkouts with a payment created in [`page.from`, `page.to`), ordered by
   * (`createdAt`, `orderId`) and starting after `page.after`: the accountant's export reads a window
   * page by page through it (payments/payments-export.ts), so its memory does not grow with the
   * window. The shipped stores read it from an index on the creation time; ties of one millisecond
   * are ordered by order id in the store's own order, so a page never repeats or skips a record. A
   * store of your own may leave it out: then every payment is read and sorted for each page
   * (created-pages.ts), as complete, and slower at volume.
   */
  listPaymentsCreated?(page: CreatedPaymentsPage): Promise<CheckoutRecord[]>;
  /**
   * Every live record that needs a person (model/support.ts `supportSince`: a held payment, an
   * open one with a refused notification, a refund with no outcome), the newest first, with no
   * limit: the refund resumer, the stale list and the stuck gauge read it. The shipped stores keep
   * it as an index written in the same atomic write as the record. A store of your own may leave it
   * out: then every payment is read, newest first, and filtered (support-views.ts).
   */
  listNeedingSupport?(): Promise<CheckoutRecord[]>;
  /**
   * How many live payments changed in [`from`, `to`), by operator (`operatorName`) and state: the
   * operator rates and the console's hourly chart. Counted from an index, never by reading records.
   * A store of your own may leave it out: then the records of the window are read and counted.
   */
  countPayments?(from: number, to: number): Promise<PaymentCount[]>;
  /**
   * Ends a console session before its expiry (its operator signed out), for every process sharing
   * the store, until `expiresAt` (after which its cookie is refused anyway). A store of your own may
   * leave both session methods out: signing out then only removes the cookie from that browser.
   */
  endConsoleSession?(sessionId: string, expiresAt: number): Promise<void>;
  /** True when `endConsoleSession` ended this session (and its expiry has not passed). */
  isConsoleSessionEnded?(sessionId: string): Promise<boolean>;
  /** Throws when the backend cannot be reached (the readiness check). */
  ping(): Promise<void>;
  /**
   * Throws when a write cannot be made although reads can (a full disk, a read-only or locked file,
   * a Redis refusing writes): a tiny write, committed and undone. The readiness check calls it, so
   * that `/readyz` is not "ready" while every write fails. Optional for a store of your own.
   */
  probeWrite?(): Promise<void>;
  /** Frees timers and connections. */
  close?(): Promise<void>;
}

/** A write the store refused because it would break an invariant (not a lost race: retrying will not help). */
export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
  constructor(
    message: string,
    /** For a service order id conflict: the id, and the live order it belongs to. */
    readonly taken?: { serviceOrderId: string; owner: string },
  ) {
    super(message);
  }
}

/**
 * A value the backend refused for what it is, not for being unreachable (PostgreSQL's data
 * exceptions, SQLSTATE class 22: a text it cannot decode, a number out of a column's range): the
 * same call fails the same way however often it is repeated, so it is never an outage (issue 55).
 * The store guard passes it unchanged; the server API answers it as the companion's fault, without
 * "retry". Every store keeps any text (the contract's odd-text cases): this is for what is left.
 */
export class StoreDataError extends Error {
  override name = 'StoreDataError';
}

/** The refusal every store gives when `serviceOrderId` already belongs to another live order, `owner`. */
export function serviceOrderIdTaken(serviceOrderId: string, owner: string): StoreConflictError {
  return new StoreConflictError(
    `service order id ${serviceOrderId} already belongs to order ${owner}: the service would match their payments, so one id names one order.`,
    { serviceOrderId, owner },
  );
}

/**
 * Applies `change` to the checkout record atomically: reads, computes, compare-and-sets, and
 * retries when another writer came first. `change` returns null to leave the record as it is. Any
 * write of a record goes through it; a payment's *transition* (which also publishes the page's view
 * and queues deliveries) is `payments/transitions.ts`.
 *
 * `justRead`: the record as the caller has just read it from this store (a copy of its own), taken
 * as the first attempt's current record instead of reading it again: one read fewer per
 * notification and per delivery (issue 43's profile). If another writer came in between, the
 * compare-and-set refuses it and the next attempt reads, as for any race.
 */
export async function updateCheckoutRecord(
  store: CheckoutStore,
  orderId: string,
  change: (current: CheckoutRecord) => CheckoutRecord | null,
  justRead?: CheckoutRecord,
): Promise<{ changed: boolean; record: CheckoutRecord | undefined; previous: CheckoutRecord | undefined }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const current = attempt === 0 && justRead?.orderId === orderId ? justRead : await store.getByOrderId(orderId);
    if (!current) return { changed: false, record: undefined, previous: undefined };
    const proposed = change(current);
    if (!proposed) return { changed: false, record: current, previous: current };
    const next = { ...proposed, revision: current.revision + 1 };
    if (await store.compareAndSet(orderId, current.revision, next)) return { changed: true, record: next, previous: current };
  }
  throw new Error(`updateCheckoutRecord: too much contention on order ${orderId}`);
}

/**
 * {@link updateCheckoutRecord} under the name the package exports (`momo-checkout/server`, kept for
 * compatibility): it is any write of a record, not only a payment's transition.
 */
export const transitionCheckout = updateCheckoutRecord;
