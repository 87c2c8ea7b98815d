<?php
// refund.php: refund a completed payment, in part or in full, to the number that paid.
// The companion must run with MOMO_REFUNDS=on. Plain PHP 8 with the curl extension.
require_once __DIR__ . '/momo.php';

/**
 * Returns the refund (['refundId', 'state', 'payoutOrderId', ...]); its outcome comes later as a
 * signed "refund.updated" notification. $refundId is YOUR id for this refund: calling again with
 * the same id and amount makes no second pay-out (do it after a timeout). $amount is a decimal
 * STRING ("2000"). A refusal throws MomoError with the companion's code and sentence, e.g.
 * EXCEEDS_PAID_AMOUNT, NOT_REFUNDABLE, REFUND_ID_REUSED, REFUNDS_DISABLED.
 */
function momo_refund(string $orderId, string $refundId, string $amount, ?string $reason = null): array
{
    $body = ['refundId' => $refundId, 'amount' => $amount];
    if ($reason !== null) {
        $body['reason'] = $reason;
    }
    // A timeout or an unreachable companion: nothing is known, call again with the same $refundId.
    return momo_post('/payments/' . rawurlencode($orderId) . '/refunds', $body, 60);
}
