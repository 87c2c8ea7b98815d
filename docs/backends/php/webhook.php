<?php
// webhook.php: receives each payment transition from the companion (MOMO_MERCHANT_WEBHOOK_URL).
// Answer 2xx once recorded: anything else is retried, with backoff, for 72 hours.
require __DIR__ . '/momo.php';

$payload = file_get_contents('php://input');
try {
    $event = momo_verify_webhook(
        $payload,
        $_SERVER['HTTP_WEBHOOK_ID'] ?? '',
        $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '',
        $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '',
        getenv('MOMO_MERCHANT_WEBHOOK_SECRET'),
    );
} catch (Throwable $error) {
    http_response_code(400);
    error_log('momo webhook refused: ' . $error->getMessage());
    exit;
}

$update = $event['data'];
// At least once, in order per order: skip an idempotencyKey (= webhook-id) already handled.
if ($update['payment']['state'] === 'completed' && !$update['amountMismatch']) {
    // fulfil_order($update['orderId']);  -- your code: mark the order paid, ship it.
}
// Here: one line per update in a file (MOMO_EVENTS_FILE); in a shop, your database.
file_put_contents(getenv('MOMO_EVENTS_FILE'), json_encode([
    'webhookId' => $_SERVER['HTTP_WEBHOOK_ID'],
    'orderId' => $update['orderId'],
    'state' => $update['payment']['state'],
    'amount' => $update['amount'],
]) . "\n", FILE_APPEND | LOCK_EX);
http_response_code(204);
