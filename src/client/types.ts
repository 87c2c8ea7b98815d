import type {
  ApprovalQrView,
  CheckoutView,
  LookupRequest,
  LookupResponse,
  PaymentView,
  PayRequest,
  PreviewRequest,
  PreviewResponse,
} from '../contract/companion.js';

/**
 * Everything `<momo-checkout>` asks of its companion. The element only ever talks to this
 * interface: `createFetchClient` in production, `createScriptedClient` in tests and stories.
 *
 * Methods reject with {@link CompanionRequestError} (the companion answered with an error code) or
 * {@link NetworkError} (no answer, or one that cannot be read).
 */
export interface CompanionClient {
  getCheckout(signal?: AbortSignal): Promise<CheckoutView>;
  lookup(request: LookupRequest, signal?: AbortSignal): Promise<LookupResponse>;
  preview(request: PreviewRequest, signal?: AbortSignal): Promise<PreviewResponse>;
  pay(request: PayRequest, signal?: AbortSignal): Promise<PaymentView>;
  /** The current payment, or null when none was started. */
  getStatus(signal?: AbortSignal): Promise<PaymentView | null>;
  /**
   * The payment's approval page as a QR code, for a payer at a desktop. Optional: a client without
   * it (an older custom one) gets the "continue on this device" link alone.
   */
  approvalQr?(signal?: AbortSignal): Promise<ApprovalQrView>;
  /** Calls `onPayment` at each payment transition until `signal` aborts. Never throws. */
  subscribe(onPayment: (payment: PaymentView) => void, signal: AbortSignal): void;
}
