/**
 * Part `payments/` (docs/architecture.md): checkouts, discovery (corridors, previews), the pay-in
 * protocol and its attempt ids, transitions of a payment (publish and queue deliveries), listing
 * and stuck payments. May import stores/, status/, model/, service-client/ and the foundation;
 * throws PayerRefusal, never an HTTP answer.
 *
 * Checkout sessions, created by the merchant's server: the order id, amount and currency live
 * here only, and the page gets an unguessable token that expires. Nothing the browser sends
 * changes the order.
 */
import { parseAmount } from '../../contract/money.js';
import type { CheckoutRecord } from '../model/records.js';
import { StoreConflictError, updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { randomId, sha256Base64url } from '../tokens.js';
import { parseReturnUrl } from '../model/urls.js';

export interface CheckoutOrder {
  /** The merchant's order id: the key the service reconciles payments and notifications by. */
  orderId: string;
  /** Decimal string in the major unit (`'5000'`, `'12.50'`): never a float. */
  amount: string;
  currencyCode: string;
  /**
   * The page to send the payer back to after an approval page, for this order (default: the
   * companion's `returnUrl`). The payer lands there with `momo_return=success|failure` and
   * `momo_order=<orderId>` added: a way back to the order, never proof of payment.
   */
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

/** Why `createCheckout` refused an order, readable by code (the message says what to do). */
export type CheckoutErrorCode =
  /** The order (id, amount, currency or return URL) is malformed. */
  | 'INVALID_ORDER'
  /** The order id already names a checkout with another amount or currency. */
  | 'ORDER_CONFLICT'
  /** A retry of another order was sent to the service under this order id (attempt-ids.ts). */
  | 'ORDER_ID_TAKEN'
  /** The payment service serves no country in this currency: no payer could find an operator. */
  | 'CURRENCY_NOT_SERVED'
  /** The amount has more decimals than the currency allows (the service refuses it and never rounds). */
  | 'AMOUNT_PRECISION'
  /** The amount is below the minimum of every operator known to serve the currency. */
  | 'AMOUNT_BELOW_MINIMUM';

export class CheckoutError extends Error {
  override name = 'CheckoutError';
  constructor(
    message: string,
    readonly code: CheckoutErrorCode = 'INVALID_ORDER',
  ) {
    super(message);
  }
}

/** The order id already names another checkout, or another order's payment attempt (the server API's 409). */
export class CheckoutConflictError extends CheckoutError {
  override name = 'CheckoutConflictError';
}

/** Kept long after a payment's last change: a webhook may come later and must still find the order. */
export const checkoutRetentionMs = 7 * 24 * 3600_000;
const unpaidGraceMs = 3600_000;

// Permissive here: `checkPayable` (payable.ts) checks the currency's decimals, the service's
// `decimalPlaces` once discovery has told it, ISO 4217's minor units before that.
const maxDecimalsAtCreation = 8;

export async function createCheckoutRecord(
  store: CheckoutStore,
  order: CheckoutOrder,
  options: {
    ttlMs: number;
    maxAttempts: number;
    now: () => number;
    defaultReturnUrl: string | null;
    /** Throws a CheckoutError for an order no payer could pay, when discovery can tell (payable.ts). */
    checkPayable?: (order: { orderId: string; amount: string; currencyCode: string }) => Promise<void>;
    /** The payment link the checkout is created from (links/link-payments.ts). */
    linkId?: string;
  },
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
  const returnUrl = order.returnUrl === undefined ? options.defaultReturnUrl : parseReturnUrl(order.returnUrl);
  if (returnUrl === null && order.returnUrl !== undefined) {
    throw new CheckoutError(`createCheckout: returnUrl ${JSON.stringify(order.returnUrl)} is not an absolute http(s) URL with a host: give the merchant page, e.g. https://shop.example/checkout.`);
  }
  if (options.checkPayable) {
    // An order already being paid keeps its token whatever was learnt since: its payer must see the outcome.
    const existing = await store.getByOrderId(order.orderId);
    if (!existing?.payment) await options.checkPayable({ orderId: order.orderId, amount: amount.amount, currencyCode: order.currencyCode });
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
    lifeId: randomId(9),
    expiresAt: now + options.ttlMs,
    ...(options.linkId !== undefined ? { linkId: options.linkId } : {}),
    revision: 0,
    version: 0,
    // A checkout that never starts a payment is dropped soon after its token expires (kept an hour
    // so a late page is told "expired", not "unknown"); a payment keeps it for a week.
    retainUntil: now + options.ttlMs + unpaidGraceMs,
    payment: null,
    deliveries: [],
    deliveryLog: [],
  };
  const { created, record: stored } = await createUnlessTaken(store, record);
  if (created) return { token, orderId: record.orderId, expiresAt: new Date(record.expiresAt).toISOString() };

  if (stored.amount !== record.amount || stored.currencyCode !== record.currencyCode) {
    throw new CheckoutConflictError(
      `createCheckout: order ${order.orderId} already has a checkout for ${stored.amount} ${stored.currencyCode}. An order id names one order: use a new order id for a different amount or currency.`,
      'ORDER_CONFLICT',
    );
  }
  if (stored.expiresAt > now) return { token: stored.token, orderId: stored.orderId, expiresAt: new Date(stored.expiresAt).toISOString() };
  // The same order after its token expired (the payer came back later): renew the token's life.
  const { record: renewed } = await updateCheckoutRecord(store, order.orderId, (current) => ({
    ...current,
    expiresAt: now + options.ttlMs,
    retainUntil: Math.max(current.retainUntil, now + options.ttlMs + unpaidGraceMs),
  }));
  const latest = renewed ?? stored;
  return { token: latest.token, orderId: latest.orderId, expiresAt: new Date(latest.expiresAt).toISOString() };
}

/**
 * Stores the new checkout, unless its order id is already the id under which a retry of another
 * order was sent to the service (the store's registry, attempt-ids.ts): the service would then
 * match this order's payment to that one.
 */
async function createUnlessTaken(store: CheckoutStore, record: CheckoutRecord): Promise<{ created: boolean; record: CheckoutRecord }> {
  try {
    return await store.createIfAbsent(record);
  } catch (error) {
    if (!(error instanceof StoreConflictError) || error.taken?.serviceOrderId !== record.orderId) throw error;
    throw new CheckoutConflictError(
      `createCheckout: order id ${JSON.stringify(record.orderId)} is already in use at the payment service: a retry of order ${JSON.stringify(error.taken.owner)} was sent under it, and one id can only name one order there. Use another order id for this order.`,
      'ORDER_ID_TAKEN',
    );
  }
}
