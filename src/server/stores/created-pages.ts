/**
 * A page of payments by creation time (store.ts `listPaymentsCreated`), read through the store's
 * index, or, for a store of the merchant's own without it, by reading every payment and sorting:
 * as complete, slower at volume and not flat in memory (docs/durability.md says what each costs).
 */
import type { CheckoutRecord } from '../model/records.js';
import type { CheckoutStore, CreatedPaymentsPage } from './store.js';

/** True when `record` is in `page`'s window and after its cursor, in the order (createdAt, orderId) of JavaScript strings. */
export function inCreatedPage(record: CheckoutRecord, page: CreatedPaymentsPage): boolean {
  if (!record.payment || record.createdAt < page.from || record.createdAt >= page.to) return false;
  const after = page.after;
  if (!after) return true;
  return record.createdAt > after.createdAt || (record.createdAt === after.createdAt && record.orderId > after.orderId);
}

/** Orders records by (createdAt, orderId), the order of a page. */
export function byCreation(a: CheckoutRecord, b: CheckoutRecord): number {
  return a.createdAt - b.createdAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0);
}

/** One page of the payments created in the window, after the cursor. */
export async function paymentsCreatedPage(store: CheckoutStore, page: CreatedPaymentsPage): Promise<CheckoutRecord[]> {
  if (page.limit <= 0) return [];
  if (store.listPaymentsCreated) return store.listPaymentsCreated(page);
  const every = await store.listPayments({ limit: Number.MAX_SAFE_INTEGER });
  return every.filter((record) => inCreatedPage(record, page)).sort(byCreation).slice(0, page.limit);
}
