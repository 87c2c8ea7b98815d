/**
 * The order id each attempt is sent under (§2.3: the caller's own identifier, the basis of
 * duplicate detection). Attempt 1 is the merchant's order id; a later attempt is `<orderId>-a<N>`,
 * the first N, above the previous attempt's, that the store gives it.
 *
 * The store is the registry that keeps two orders apart (store.ts, `compareAndSet`): it refuses an
 * attempt id that another order's attempt holds or that is another checkout's order id, and a new
 * checkout whose order id an attempt holds. So a merchant's order id may have any form the service
 * takes (`INV-a2024` too): when order `X-a2` exists, `X`'s second attempt goes out as `X-a3`. A
 * notification is matched through that registry only, never by reading this suffix back.
 */

/** How many ids a new attempt tries before giving up (each one taken by another order). */
export const maxAttemptIdTries = 100;

/** The ids a new attempt after the one sent as `previous` may take, in the order to try them. */
export function nextAttemptOrderIds(orderId: string, previous: string): string[] {
  // `previous` is this order's own id or one made here, `<orderId>-a<N>`: the next N is above it.
  const previousN = previous === orderId ? 1 : Number(previous.slice(`${orderId}-a`.length));
  const first = Number.isSafeInteger(previousN) ? previousN + 1 : 2;
  return Array.from({ length: maxAttemptIdTries }, (_, index) => `${orderId}-a${first + index}`);
}
