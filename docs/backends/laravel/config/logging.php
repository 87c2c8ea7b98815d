<?php
// To the server's standard error (`php -S` prints it; a container's log collects it).
return [
    'default' => 'stderr',
    'channels' => [
        'stderr' => ['driver' => 'monolog', 'handler' => Monolog\Handler\StreamHandler::class, 'with' => ['stream' => 'php://stderr']],
    ],
];
