/**
 * Checkout sessions, created by the merchant's server: the order id, amount and currency live
 * here only, and the page gets an unguessable token that expires. Nothing the browser sends
 * changes the order.
 */
import { parseAmount } from '../../contract/money.js';
import type { CheckoutRecord } from './records.js';
import type { CheckoutStore } from './store.js';
import { transitionCheckout } from './store.js';
import { randomId, sha256Base64url } from './tokens.js';

export interface CheckoutOrder {
  /** The merchant's order id: the reconciliation key sent to the service (§2.3). */
  orderId: string;
  /** Decimal string in the major unit (`'5000'`, `'12.50'`): never a float. */
  amount: string;
  currencyCode: string;
  /** The page to send the payer back to after an authorisation page. */
  returnUrl?: string;
  /** Attempts allowed (a new one only after a verified failure). */
  maxAttempts?: number;
}

export interface CreatedCheckout {
  token: string;
  orderId: string;
  /** ISO 8601 */
  expiresAt: string;
}

export class CheckoutError extends Error {
  override name = 'CheckoutError';
}

/** The order id already names a checkout with another amount or currency (the server API's 409). */
export class CheckoutConflictError extends CheckoutError {
  override name = 'CheckoutConflictError';
}

/** Kept long after a payment's last change: a webhook may come later and must still find the order. */
export const checkoutRetentionMs = 7 * 24 * 3600_000;
const unpaidGraceMs = 3600_000;

// Permissive at creation: the currency's real `decimalPlaces` is known from discovery, where the
// payer's number is known; an amount the currency cannot carry is refused there with a reason.
const maxDecimalsAtCreation = 8;

export async function createCheckoutRecord(
  store: CheckoutStore,
  order: CheckoutOrder,
  options: { ttlMs: number; maxAttempts: number; now: () => number; defaultReturnUrl: string | null },
): Promise<CreatedCheckout> {
  if (typeof order.orderId !== 'string' || !/^[\w.:-]{1,100}$/.test(order.orderId)) {
    throw new CheckoutError('createCheckout: orderId must be 1 to 100 letters, digits, "-", "_", "." or ":".');
  }
  if (typeof order.amount !== 'string') {
    throw new CheckoutError(`createCheckout: amount must be a decimal string such as '5000' or '12.50', not a ${typeof order.amount} (floats lose digits).`);
  }
  const amount = parseAmount(order.amount, maxDecimalsAtCreation);
  if (!amount.ok) throw new CheckoutError(`createCheckout: amount ${JSON.stringify(order.amount)}: ${amount.message}`);
  if (typeof order.currencyCode !== 'string' || !/^[A-Z]{3,5}$/.test(order.currencyCode)) {
    throw new CheckoutError('createCheckout: currencyCode must be an upper-case code such as XOF, XAF or USD.');
  }
  const returnUrl = order.returnUrl ?? options.defaultReturnUrl;
  if (returnUrl !== null && !/^https?:\/\//.test(returnUrl)) {
    throw new CheckoutError('createCheckout: returnUrl must be an http(s) URL of the merchant page.');
  }
  const now = options.now();
  const token = randomId();
  const record: CheckoutRecord = {
    orderId: order.orderId,
    amount: amount.amount,
    currencyCode: order.currencyCode,
    decimalPlaces: null,
    token,
    tokenHash: await sha256Base64url(token),
    returnId: randomId(18),
    returnUrl,
    maxAttempts: order.maxAttempts ?? options.maxAttempts,
    createdAt: now,
    expiresAt: now + options.ttlMs,
    revision: 0,
    version: 0,
    // A checkout that never starts a payment is dropped soon after its token expires (kept an hour
    // so a late page is told "expired", not "unknown"); a payment keeps it for a week.
    retainUntil: now + options.ttlMs + unpaidGraceMs,
    payment: null,
    deliveries: [],
    deliveryLog: [],
  };
  const { created, record: stored } = await store.createIfAbsent(record);
  if (created) return { token, orderId: record.orderId, expiresAt: new Date(record.expiresAt).toISOString() };

  if (stored.amount !== record.amount || stored.currencyCode !== record.currencyCode) {
    throw new CheckoutConflictError(
      `createCheckout: order ${order.orderId} already has a checkout for ${stored.amount} ${stored.currencyCode}. An order id names one order: use a new order id for a different amount or currency.`,
    );
  }
  if (stored.expiresAt > now) return { token: stored.token, orderId: stored.orderId, expiresAt: new Date(stored.expiresAt).toISOString() };
  // The same order after its token expired (the payer came back later): renew the token's life.
  const { record: renewed } = await transitionCheckout(store, order.orderId, (current) => ({
    ...current,
    expiresAt: now + options.ttlMs,
    retainUntil: Math.max(current.retainUntil, now + options.ttlMs + unpaidGraceMs),
  }));
  const latest = renewed ?? stored;
  return { token: latest.token, orderId: latest.orderId, expiresAt: new Date(latest.expiresAt).toISOString() };
}
