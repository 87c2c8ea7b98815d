/**
 * Refunds that need a person: no final outcome past the stale threshold, or a genuine pay-out
 * notification this server refused for its clock. Each gets the sentence to act on or to send to
 * the payment service's support, as stuck payments do (payments-list.ts). A refund's pay-out is
 * settled only by the service's notification (§6), which it sends once (§6.4).
 */
import type { CheckoutRecord } from '../model/records.js';
import type { RefundRecord } from '../model/refund.js';
import { unsettledRefundStates } from '../model/support.js';

/** The refunds of `record` with no final outcome and unchanged since `changedBefore`, or with a refused notification. */
export function stuckRefunds(record: CheckoutRecord, changedBefore: number): RefundRecord[] {
  return (record.refunds ?? []).filter((refund) => unsettledRefundStates.has(refund.state) && (refund.updatedAt <= changedBefore || refund.refusedNotification));
}

export function refundAdvice(record: CheckoutRecord, refund: RefundRecord): string {
  const payout = `pay-out order ${refund.payoutOrderId}${refund.transactionId ? ` (transaction ${refund.transactionId})` : ''}, ${refund.amount} ${record.currencyCode}`;
  const repeat = `POST /payments/${record.orderId}/refunds again with refundId ${JSON.stringify(refund.refundId)} and amount "${refund.amount}" (it never pays twice)`;
  if (refund.refusedNotification) {
    return `This server refused a genuine notification of refund ${refund.refundId} (status "${refund.refusedNotification.status}") because its clock is off: fix the clock (NTP), then ask the payment service's support to re-emit the notification of ${payout}.`;
  }
  if (refund.payoutIdConflict) {
    return `The payment service holds another client's transaction under ${payout}: nothing more is posted for refund ${refund.refundId}. Ask its support about that order id before refunding the payer another way.`;
  }
  switch (refund.state) {
    case 'sending':
      return `Refund ${refund.refundId} stopped before the answer to ${payout} was written (a restart?). The companion posts it again under the same pay-out order id by itself; if it stays here, ${repeat}.`;
    case 'unknown':
      return `The answer to ${payout} was lost, so the pay-out may or may not exist. Ask the payment service's support whether it exists and to re-emit its notification, or ${repeat}; do not refund the payer another way before they answer.`;
    default:
      return `No notification has come for ${payout}. Check it in the payment service's dashboard, and ask its support to re-emit its notification to this server's webhook URL.`;
  }
}
