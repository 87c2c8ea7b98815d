<?php
// checkout.php: the order page. Creates the checkout on the companion, server side, and puts
// its token in the page; the payer's browser never sees the server secret.
require __DIR__ . '/momo.php';

// In a shop these come from the order in your database, never from the browser.
$orderId = $_GET['order'] ?? 'order-42';
$amount = $_GET['amount'] ?? '5000';
$checkout = momo_create_checkout($orderId, $amount, 'XOF', getenv('SHOP_URL') . "/checkout.php?order=$orderId");

// The package's own file (MOMO_ELEMENT_FILE: node_modules/momo-checkout/dist/browser/...), served
// by this shop (momo-checkout.php) unless MOMO_ELEMENT_SCRIPT names where else you serve it: its
// hash pins the script, so the browser runs no other bytes, whoever serves them.
$script = getenv('MOMO_ELEMENT_SCRIPT') ?: 'momo-checkout.php';
$integrity = 'sha384-' . base64_encode(hash_file('sha384', getenv('MOMO_ELEMENT_FILE'), true));
$e = fn (string $text) => htmlspecialchars($text, ENT_QUOTES);
?>
<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Order <?= $e($orderId) ?></title>
<script src="<?= $e($script) ?>" integrity="<?= $e($integrity) ?>" crossorigin="anonymous" defer></script>
<h1>Order <?= $e($orderId) ?>: <?= $e($amount) ?> XOF</h1>
<momo-checkout endpoint="<?= $e(getenv('MOMO_ENDPOINT')) ?>" token="<?= $e($checkout['token']) ?>" country="BJ"></momo-checkout>
</html>
