/**
 * The support views read through a store's index (store.ts `listNeedingSupport`, `countPayments`),
 * or, for a store of the merchant's own without them, by reading every payment newest first: as
 * complete, slower at volume (docs/durability.md says what each costs).
 */
import type { CheckoutRecord } from '../model/records.js';
import { countPaymentsOf, supportSince, type PaymentCount } from '../model/support.js';
import type { CheckoutStore } from './store.js';

/** Every live record that needs a person, the newest first. */
export async function recordsNeedingSupport(store: CheckoutStore): Promise<CheckoutRecord[]> {
  if (store.listNeedingSupport) return store.listNeedingSupport();
  const every = await store.listPayments({ newestFirst: true, limit: Number.MAX_SAFE_INTEGER });
  return every.filter((record) => supportSince(record) !== null);
}

/** The live payments changed in [from, to), counted by operator and state. */
export async function countPaymentsBetween(store: CheckoutStore, from: number, to: number): Promise<PaymentCount[]> {
  if (store.countPayments) return store.countPayments(from, to);
  const records = await store.listPayments({ updatedAfter: from, updatedBefore: to - 1, newestFirst: true, limit: Number.MAX_SAFE_INTEGER });
  return countPaymentsOf(records, from, to);
}
