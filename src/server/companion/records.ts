/**
 * What the companion keeps per checkout. Plain JSON-serialisable data, so a persistent or shared
 * store (Redis) can hold it as it is.
 */
import type { PaymentState } from '../../contract/companion.js';

export interface OperatorRecord {
  code: string;
  name: string;
  logoUrl: string;
  instructions: string | null;
}

export interface PaymentRecord {
  state: PaymentState;
  /** 1 for the first attempt; a new attempt only after a verified final `failed`. */
  attempt: number;
  /** The `orderId` sent to the service: the checkout's for attempt 1, `<orderId>-a<N>` after. */
  serviceOrderId: string;
  /** E.164. Server-side only: the page sees it masked. */
  phoneNumber: string;
  useWallet: boolean;
  operator: OperatorRecord | null;
  workflow: string | null;
  /** https only (§6.2 nextAction.authorizationUrl); null until the webhook brings it. */
  authorizationUrl: string | null;
  returned: boolean;
  /** The notification's amount differed from the checkout's: never reported as paid. */
  amountMismatch: boolean;
  /** The workflow the fee preview announced, if the page asked for one. */
  previewWorkflow?: string | null;
  /** The last status a verified notification carried, as written. */
  lastServiceStatus: string | null;
  updatedAt: number;
}

export interface CheckoutRecord {
  orderId: string;
  /** Canonical decimal string (contract/money.ts). Set by the merchant's server only. */
  amount: string;
  currencyCode: string;
  /** Learned from discovery; null until then. */
  decimalPlaces: number | null;
  /**
   * The checkout token, kept so that creating the same order again returns the same token; looked
   * up by its SHA-256 (`tokenHash`), so store keys never contain a token.
   */
  token: string;
  tokenHash: string;
  /** Unguessable id of the return route (`/return/<returnId>`). */
  returnId: string;
  returnUrl: string | null;
  maxAttempts: number;
  createdAt: number;
  expiresAt: number;
  /** Increases at every write; the store's compare-and-set compares it. */
  revision: number;
  /** Increases at every change the page should see; the status stream's event id. */
  version: number;
  payment: PaymentRecord | null;
}
