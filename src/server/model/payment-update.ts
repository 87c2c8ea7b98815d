import type { PaymentView } from '../../contract/companion.js';

/** What `onPaymentUpdate` receives: one call per transition. */
export interface PaymentUpdate {
  /** The merchant's order id (not the attempt's `<orderId>-a2`). */
  orderId: string;
  /**
   * The same for every delivery of one transition (a retry, a restart): record it with the order's
   * fulfilment and skip an update whose key you already have.
   */
  idempotencyKey: string;
  amount: string;
  currencyCode: string;
  payment: PaymentView;
  /** The state before this transition (null for the first). */
  previousState: PaymentView['state'] | null;
  /** True when a notification's amount differed from the order's: never treat the order as paid. */
  amountMismatch: boolean;
}
