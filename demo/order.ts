/**
 * A new demo order from the page's query string (`?amount=...&currency=...&expiry=...`). Only the
 * demo's SERVER reads these and passes them to `companion.createCheckout`: the element never sets an
 * amount. An existing order is shown at `?order=<id>`, from the order book (order-book.ts).
 */
import { randomBytes } from 'node:crypto';

export interface DemoOrder {
  orderId: string;
  /** Decimal string in the major unit (§2.1). */
  amount: string;
  currencyCode: string;
  /** Item lines of the summary; they add up to `amount`. */
  lines: { label: string; amount: string }[];
  /** True when the query set the amount or currency (else the shop's sample basket). */
  custom: boolean;
  /** Seconds without an outcome before the element says "we haven't heard back" (`?expiry=`). */
  expirySeconds: number | null;
}

export type OrderResult = { ok: true; order: DemoOrder } | { ok: false; message: string };

/** The order shown when the query names none: three items of a small shop, 5 000 XOF in all. */
const defaultLines = [
  { label: 'Bissap juice, 1 L', amount: '1500' },
  { label: 'Attiéké with grilled fish', amount: '2500' },
  { label: 'Delivery, Cotonou', amount: '1000' },
];

export const orderIdPattern = /^[\w.:-]{1,100}$/;

/** `demo-<time>-<6 hex>`: any such id is a valid order id, `demo-...-a03872` included (issue 26). */
export function newOrderId(random: Uint8Array = randomBytes(3)): string {
  return `demo-${Date.now().toString(36)}-${Buffer.from(random).toString('hex')}`;
}

/** Reads the query; a wrong value gives a message that says what to write instead, never a throw. */
export function orderFromQuery(query: URLSearchParams): OrderResult {
  const amountText = query.get('amount')?.trim();
  const currencyText = query.get('currency')?.trim();
  const orderText = query.get('order')?.trim();
  const expiryText = query.get('expiry')?.trim();

  const amount = amountText ?? '5000';
  // A plain positive decimal: the companion keeps amounts as exact strings, never floats (§2.1).
  if (!/^\d{1,13}(\.\d{1,8})?$/.test(amount) || /^0+(\.0*)?$/.test(amount)) {
    return { ok: false, message: `The amount "${amount}" is not a positive number. Write it with digits and at most one dot, e.g. ?amount=5000 or ?amount=12.50.` };
  }
  const currencyCode = (currencyText ?? 'XOF').toUpperCase();
  if (!/^[A-Z]{3,5}$/.test(currencyCode)) {
    return { ok: false, message: `The currency "${currencyText}" is not a currency code. Use 3 to 5 letters, e.g. ?currency=XOF, XAF, CDF or USD.` };
  }
  if (orderText !== undefined && !orderIdPattern.test(orderText)) {
    return { ok: false, message: 'The order id may only hold letters, digits, "-", "_", "." or ":" (at most 100). Remove ?order= to get a new order.' };
  }
  let expirySeconds: number | null = null;
  if (expiryText !== undefined) {
    const seconds = Number(expiryText);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
      return { ok: false, message: `?expiry= is the number of seconds to wait for an outcome, from 1 to 3600 (got "${expiryText}").` };
    }
    expirySeconds = seconds;
  }
  const isDefault = amountText === undefined && currencyText === undefined;
  return {
    ok: true,
    order: {
      orderId: orderText ?? newOrderId(),
      amount: amount.replace(/^0+(?=\d)/, ''),
      currencyCode,
      lines: isDefault ? defaultLines : [{ label: 'Your basket', amount }],
      custom: !isDefault,
      expirySeconds,
    },
  };
}

/**
 * The query of an order's own page (`order=<id>`): the shop keeps the order itself on the server
 * (order-book.ts), so a reload, or the return from an approval page, shows the same order.
 */
export function orderQuery(order: DemoOrder): string {
  return new URLSearchParams({ order: order.orderId }).toString();
}
