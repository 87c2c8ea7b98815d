/**
 * The order id each attempt is sent under (§2.3: the caller's own identifier, the basis of
 * duplicate detection). Attempt 1 is the merchant's order id; attempt N > 1 is `<orderId>-a<N>`.
 *
 * A merchant's order id may not end in `-a<digits>`: otherwise order `X-a2` and the second
 * attempt of order `X` would be the same id at the service, and a payment could be credited to the
 * wrong order. With that form reserved, the id of an attempt names exactly one (order, attempt):
 * the last `-a` of `<orderId>-a<N>` is ours, since N has only digits and orderId cannot end that way.
 */

/** Merchant order ids of this form are refused by `createCheckout` (case-insensitive, to be safe). */
export const reservedOrderIdPattern = /-a\d+$/i;

export function attemptOrderId(orderId: string, attempt: number): string {
  return attempt === 1 ? orderId : `${orderId}-a${attempt}`;
}
