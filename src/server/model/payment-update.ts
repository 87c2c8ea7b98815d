import type { PaymentView } from '../../contract/companion.js';

/** What `onPaymentUpdate` receives: one call per transition. */
export interface PaymentUpdate {
  /** The merchant's order id (not the attempt's `<orderId>-a2`). */
  orderId: string;
  /**
   * The same for every delivery of one transition (a retry, a restart), and never the same for two
   * transitions, even of an order id created again after its checkout expired: record it with the
   * order's fulfilment and skip an update whose key you already have. `<orderId>.<lifeId>.<version>`
   * (`order-42.Xq3v9TbN0aZk.2`), where the life id is random per creation of the checkout: read it
   * as an opaque string.
   */
  idempotencyKey: string;
  amount: string;
  currencyCode: string;
  payment: PaymentView;
  /** The state before this transition (null for the first). */
  previousState: PaymentView['state'] | null;
  /** True when a notification's amount differed from the order's: never treat the order as paid. */
  amountMismatch: boolean;
  /**
   * True when the service reported the payment from another number than the one it was sent to:
   * never treat the order as paid; it is held for support (the stuck payments list says what to send).
   */
  phoneMismatch: boolean;
  /** The payment link it was paid through (its order id is `<linkId>-<t>-<n>`, model/link.ts `linkOrderId`); absent for the shop's own checkouts. */
  linkId?: string;
}
