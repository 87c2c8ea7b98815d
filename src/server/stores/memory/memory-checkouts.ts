/**
 * The memory store's checkout records and their registries: the records by order id, the indexes
 * by token hash, return id and service order id (the registry of attempt and pay-out ids), the
 * checkouts without a payment (what may be dropped when full), and the cap. Apart from the store
 * (memory-store.ts, which adds the locks, the inbox and the signed-out sessions) because these maps
 * must change together: a record forgotten or replaced takes its index entries with it.
 *
 * Nothing here awaits, so each method runs whole in one JavaScript process; records are stored as
 * the store gives them (deeply frozen, frozen-data.ts) and handed out as they are.
 */
import { nextDeliveryAt, serviceOrderIdsOf, type CheckoutRecord } from '../../model/records.js';
import { supportSince } from '../../model/support.js';
import { byCreation, inCreatedPage } from '../created-pages.js';
import { serviceOrderIdTaken, type CreatedPaymentsPage, type PaymentQuery } from '../store.js';
import { defaultPaymentListLimit } from '../../model/option-defaults.js';

/** The memory store is full of checkouts with payments: nothing could be dropped to make room. */
export class StoreFullError extends Error {
  override name = 'StoreFullError';
}

export class MemoryCheckouts {
  private readonly byOrderId = new Map<string, CheckoutRecord>();
  /** The records with a payment by last change, oldest first; null after a write (paymentsChangedBetween sorts again). */
  private byChange: CheckoutRecord[] | null = null;
  /** The records with a payment by (createdAt, orderId); null after a write (paymentsCreated sorts again). */
  private byCreationTime: CheckoutRecord[] | null = null;
  /** Order ids of checkouts without a payment, oldest first (what may be dropped when full). */
  private readonly unpaid = new Set<string>();
  private readonly orderIdByTokenHash = new Map<string, string>();
  private readonly orderIdByReturnId = new Map<string, string>();
  private readonly orderIdByServiceOrderId = new Map<string, string>();
  private readonly serviceOrderIdsByOrderId = new Map<string, Set<string>>();
  private lastForcedSweep = -Infinity;

  constructor(
    private readonly now: () => number,
    private readonly maxRecords: number,
  ) {}

  /** The live record of `orderId`; an expired one is forgotten on the way. */
  live(orderId: string | undefined): CheckoutRecord | undefined {
    if (orderId === undefined) return undefined;
    const record = this.byOrderId.get(orderId);
    if (!record) return undefined;
    if (record.retainUntil <= this.now()) {
      this.forget(record);
      return undefined;
    }
    return record;
  }

  byTokenHash(tokenHash: string): CheckoutRecord | undefined {
    return this.live(this.orderIdByTokenHash.get(tokenHash));
  }

  byReturnId(returnId: string): CheckoutRecord | undefined {
    return this.live(this.orderIdByReturnId.get(returnId));
  }

  byServiceOrderId(serviceOrderId: string): CheckoutRecord | undefined {
    return this.live(this.orderIdByServiceOrderId.get(serviceOrderId));
  }

  /** Throws unless every id in `serviceOrderIds` is free for `orderId` (none is another live order's). */
  checkServiceOrderIds(orderId: string, serviceOrderIds: ReadonlyArray<string | undefined>): void {
    for (const serviceOrderId of serviceOrderIds) {
      const owner = serviceOrderId === undefined ? undefined : this.otherOwner(serviceOrderId, orderId);
      if (owner !== undefined) throw serviceOrderIdTaken(serviceOrderId!, owner);
    }
  }

  /**
   * Makes room for one more record when full: expired records first (a full sweep of the store,
   * `sweepAll`, at most once a second), then the oldest never paid; throws a {@link StoreFullError}
   * when every record has a payment.
   */
  makeRoom(sweepAll: () => void): void {
    if (this.byOrderId.size < this.maxRecords) return;
    if (this.now() - this.lastForcedSweep >= 1000) {
      this.lastForcedSweep = this.now();
      sweepAll();
    }
    while (this.byOrderId.size >= this.maxRecords) {
      const oldest = this.unpaid.values().next();
      if (oldest.done) {
        throw new StoreFullError(
          `The memory store holds ${this.byOrderId.size} checkouts, all with a payment (maxRecords ${this.maxRecords}): none is dropped while a notification may still come. Raise maxRecords, or use a persistent store.`,
        );
      }
      const record = this.byOrderId.get(oldest.value);
      if (record) this.forget(record);
      else this.unpaid.delete(oldest.value);
    }
  }

  /** Stores a new record (frozen, its service order ids checked, room made). */
  add(record: CheckoutRecord): void {
    this.byChange = null;
    this.byCreationTime = null;
    this.byOrderId.set(record.orderId, record);
    if (!record.payment) this.unpaid.add(record.orderId);
    this.index(record);
  }

  /** Replaces the live record of `orderId` (with a frozen one, its service order ids checked). */
  replace(orderId: string, next: CheckoutRecord): void {
    this.byChange = null;
    this.byCreationTime = null;
    this.byOrderId.set(orderId, next);
    if (next.payment) this.unpaid.delete(orderId);
    this.index(next);
  }

  /** Forgets every record expired at `at`. */
  sweep(at: number): void {
    for (const record of this.byOrderId.values()) if (record.retainUntil <= at) this.forget(record);
  }

  /** The order ids with a delivery due at `at`, the longest due first. */
  dueDeliveries(at: number, limit: number): string[] {
    const due: Array<{ orderId: string; at: number }> = [];
    for (const record of this.byOrderId.values()) {
      const next = nextDeliveryAt(record);
      if (next !== null && next <= at && this.live(record.orderId)) due.push({ orderId: record.orderId, at: next });
    }
    return due.sort((a, b) => a.at - b.at).slice(0, limit).map((item) => item.orderId);
  }

  /** The live records with a payment that `query` asks for. */
  payments(query: PaymentQuery): CheckoutRecord[] {
    const found: CheckoutRecord[] = [];
    for (const record of this.byOrderId.values()) {
      const payment = record.payment;
      if (!payment || !this.live(record.orderId)) continue;
      if (query.states && !query.states.includes(payment.state)) continue;
      if (query.updatedBefore !== undefined && payment.updatedAt > query.updatedBefore) continue;
      if (query.updatedAfter !== undefined && payment.updatedAt < query.updatedAfter) continue;
      found.push(record);
    }
    const direction = query.newestFirst ? -1 : 1;
    found.sort((a, b) => direction * (a.payment!.updatedAt - b.payment!.updatedAt));
    return found.slice(0, query.limit ?? defaultPaymentListLimit);
  }

  /**
   * The live records whose payment changed in [from, to) (the counts of `countPayments`,
   * 27 ranges per console overview): found by bisection in the records sorted by last change, sorted
   * again after a write only when next read.
   */
  *paymentsChangedBetween(from: number, to: number): Generator<CheckoutRecord> {
    this.byChange ??= [...this.byOrderId.values()].filter((record) => record.payment).sort((a, b) => a.payment!.updatedAt - b.payment!.updatedAt);
    const sorted = this.byChange;
    let low = 0;
    for (let high = sorted.length; low < high; ) {
      const middle = (low + high) >> 1;
      if (sorted[middle]!.payment!.updatedAt < from) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < sorted.length && sorted[index]!.payment!.updatedAt < to; index++) {
      const record = sorted[index]!;
      if (this.byOrderId.get(record.orderId) === record && this.live(record.orderId)) yield record;
    }
  }

  /** A page of the live records with a payment created in the window, after the cursor: found by bisection. */
  paymentsCreated(page: CreatedPaymentsPage): CheckoutRecord[] {
    this.byCreationTime ??= [...this.byOrderId.values()].filter((record) => record.payment).sort(byCreation);
    const sorted = this.byCreationTime;
    const start = page.after ?? { createdAt: page.from, orderId: '' };
    const pastCursor = page.after !== undefined;
    let low = 0;
    for (let high = sorted.length; low < high; ) {
      const middle = (low + high) >> 1;
      const record = sorted[middle]!;
      if (record.createdAt < start.createdAt || (pastCursor && record.createdAt === start.createdAt && record.orderId <= start.orderId)) low = middle + 1;
      else high = middle;
    }
    const found: CheckoutRecord[] = [];
    for (let index = low; index < sorted.length && found.length < page.limit && sorted[index]!.createdAt < page.to; index++) {
      const record = sorted[index]!;
      if (this.byOrderId.get(record.orderId) === record && inCreatedPage(record, page) && this.live(record.orderId)) found.push(record);
    }
    return found;
  }

  /** The live records that need a person (model/support.ts), the newest first: one pass over the map. */
  needingSupport(): CheckoutRecord[] {
    const found: Array<{ record: CheckoutRecord; since: number }> = [];
    for (const record of this.byOrderId.values()) {
      const since = supportSince(record);
      if (since !== null && this.live(record.orderId)) found.push({ record, since });
    }
    return found.sort((a, b) => b.since - a.since).map((item) => item.record);
  }

  private forget(record: CheckoutRecord): void {
    this.byChange = null;
    this.byCreationTime = null;
    this.byOrderId.delete(record.orderId);
    this.unpaid.delete(record.orderId);
    this.orderIdByTokenHash.delete(record.tokenHash);
    this.orderIdByReturnId.delete(record.returnId);
    for (const serviceOrderId of this.serviceOrderIdsByOrderId.get(record.orderId) ?? []) {
      // Not one another order took over once this record had expired.
      if (this.orderIdByServiceOrderId.get(serviceOrderId) === record.orderId) this.orderIdByServiceOrderId.delete(serviceOrderId);
    }
    this.serviceOrderIdsByOrderId.delete(record.orderId);
  }

  /** The live order other than `orderId` that `serviceOrderId` belongs to: an attempt's, or a checkout's own id. */
  private otherOwner(serviceOrderId: string, orderId: string): string | undefined {
    const owner = this.orderIdByServiceOrderId.get(serviceOrderId);
    if (owner !== undefined && owner !== orderId && this.live(owner)) return owner;
    if (serviceOrderId !== orderId && this.live(serviceOrderId)) return serviceOrderId;
    return undefined;
  }

  private index(record: CheckoutRecord): void {
    this.orderIdByTokenHash.set(record.tokenHash, record.orderId);
    this.orderIdByReturnId.set(record.returnId, record.orderId);
    for (const serviceOrderId of serviceOrderIdsOf(record)) {
      this.orderIdByServiceOrderId.set(serviceOrderId, record.orderId);
      let ids = this.serviceOrderIdsByOrderId.get(record.orderId);
      if (!ids) this.serviceOrderIdsByOrderId.set(record.orderId, (ids = new Set()));
      ids.add(serviceOrderId);
    }
  }
}
