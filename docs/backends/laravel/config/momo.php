<?php
// momo-checkout: where the companion is (`npx momo-checkout serve`), and the secret that signs its
// notifications to MOMO_MERCHANT_WEBHOOK_URL (this shop's /momo/events). MOMO_SERVER_URL and
// MOMO_SERVER_SECRET are read by momo.php itself.
return [
    'endpoint' => env('MOMO_ENDPOINT'), // e.g. http://127.0.0.1:8787/momo (the page talks to it)
    'webhook_secret' => env('MOMO_MERCHANT_WEBHOOK_SECRET'),
    // The element's script, from the package (node_modules/momo-checkout/dist/browser/...): served
    // by this shop and pinned with its integrity hash.
    'element_file' => env('MOMO_ELEMENT_FILE'),
];
