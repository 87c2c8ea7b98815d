<?php
// momo.php: the two things a PHP backend does with the momo-checkout companion.
// Plain PHP 8 with the curl extension; no framework, no package.

const MOMO_TOLERANCE_SECONDS = 300;

class MomoError extends RuntimeException {}

/**
 * Creates (or gets again) the checkout of an order; returns ['token' => ..., 'orderId' => ..., 'expiresAt' => ...].
 * Idempotent on the order id: call it every time the order page is shown.
 * $amount is a decimal STRING ("5000", "12.50"), never a float.
 */
function momo_create_checkout(string $orderId, string $amount, string $currencyCode, ?string $returnUrl = null): array
{
    $body = ['orderId' => $orderId, 'amount' => $amount, 'currencyCode' => $currencyCode];
    if ($returnUrl !== null) {
        $body['returnUrl'] = $returnUrl;
    }
    // e.g. a 409: this order id already has a checkout for another amount.
    return momo_post('/checkouts', $body, 10);
}

/**
 * POSTs $body to the companion's server API ($path under MOMO_SERVER_URL) and returns the answer;
 * a refusal throws MomoError with the companion's code and sentence.
 */
function momo_post(string $path, array $body, int $timeoutSeconds): array
{
    $curl = curl_init(getenv('MOMO_SERVER_URL') . $path);
    curl_setopt_array($curl, [
        CURLOPT_POST => true,
        CURLOPT_POSTFIELDS => json_encode($body),
        CURLOPT_HTTPHEADER => [
            'Content-Type: application/json',
            'Authorization: Bearer ' . getenv('MOMO_SERVER_SECRET'),
        ],
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => $timeoutSeconds,
    ]);
    $text = curl_exec($curl);
    $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
    $error = curl_error($curl);
    curl_close($curl);
    if ($text === false) {
        throw new MomoError("momo-checkout companion unreachable: $error");
    }
    $answer = json_decode($text, true);
    if ($status !== 200) {
        $code = $answer['error']['code'] ?? '';
        throw new MomoError("momo-checkout: HTTP $status $code: " . ($answer['error']['message'] ?? $text));
    }
    return $answer;
}

/**
 * Verifies a notification from the companion (Standard Webhooks) and returns the event.
 * $payload is the RAW body (file_get_contents('php://input')), never a re-encoded one.
 */
function momo_verify_webhook(string $payload, string $id, string $timestamp, string $signatures, string $secret): array
{
    if ($id === '' || !ctype_digit($timestamp) || $signatures === '') {
        throw new MomoError('missing webhook-id, webhook-timestamp or webhook-signature header');
    }
    if (abs(time() - (int) $timestamp) > MOMO_TOLERANCE_SECONDS) {
        throw new MomoError('timestamp outside the tolerance: check this server clock (NTP)');
    }
    $key = base64_decode(substr($secret, strlen('whsec_')), true);
    $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$payload", $key, true));
    // The header may hold several space-separated signatures ("v1,<base64> v1,<base64>").
    foreach (explode(' ', $signatures) as $versioned) {
        [$version, $signature] = array_pad(explode(',', $versioned, 2), 2, '');
        if ($version === 'v1' && hash_equals($expected, $signature)) {
            return json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
        }
    }
    throw new MomoError('no matching signature: is MOMO_MERCHANT_WEBHOOK_SECRET the one the companion uses?');
}
