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
if ($event['type'] !== 'payment.updated') {
    http_response_code(204); // test.ping, or refund.updated when refunds are on: record those too if you refund.
    exit;
}
// The shop's database, here: one JSON line per notification in a file (MOMO_EVENTS_FILE), read and
// written under one lock. In a shop: a table keyed by webhook-id, written in the same transaction
// as the order's change.
$events = fopen(getenv('MOMO_EVENTS_FILE'), 'c+');
flock($events, LOCK_EX);
$kept = array_map(fn ($line) => json_decode($line, true), array_filter(explode("\n", stream_get_contents($events))));
// At least once: a notification sent again (a retry, `momo-checkout redeliver`) keeps its
// webhook-id, so one already kept was handled: answer 2xx and do nothing more.
if (!in_array($_SERVER['HTTP_WEBHOOK_ID'], array_column($kept, 'webhookId'), true)) {
    $fulfilledBefore = array_filter($kept, fn ($line) => $line['orderId'] === $update['orderId'] && $line['fulfilled']);
    // Paid, the amount as ordered, and not fulfilled yet: mark the order paid and ship it, once.
    $fulfil = $update['payment']['state'] === 'completed' && !$update['amountMismatch'] && !$fulfilledBefore;
    fwrite($events, json_encode([
        'webhookId' => $_SERVER['HTTP_WEBHOOK_ID'],
        'orderId' => $update['orderId'],
        'state' => $update['payment']['state'],
        'amount' => $update['amount'],
        'fulfilled' => $fulfil,
    ]) . "\n");
    fflush($events);
}
flock($events, LOCK_UN);
fclose($events);
http_response_code(204);
