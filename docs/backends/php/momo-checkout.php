<?php
// momo-checkout.php: the element's script, served by the shop from the installed package's file
// (MOMO_ELEMENT_FILE: node_modules/momo-checkout/dist/browser/momo-checkout-<version>.js).
// A web server can serve that file as a static asset instead: MOMO_ELEMENT_SCRIPT then names its URL.
header('Content-Type: text/javascript');
header('Cache-Control: public, max-age=300');
readfile(getenv('MOMO_ELEMENT_FILE'));
