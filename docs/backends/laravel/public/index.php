<?php
// Every request of the shop: `php -S 127.0.0.1:8000 -t public public/index.php` (or behind a web server).
$app = require __DIR__ . '/../bootstrap/app.php';
$kernel = $app->make(Illuminate\Contracts\Http\Kernel::class);
$response = $kernel->handle($request = Illuminate\Http\Request::capture());
$response->send();
$kernel->terminate($request, $response);
