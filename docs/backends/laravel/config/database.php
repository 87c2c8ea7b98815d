<?php
return [
    'default' => 'sqlite',
    'connections' => [
        // The shop's own database (PDO SQLite): its orders and the notifications it handled.
        'sqlite' => [
            'driver' => 'sqlite',
            'database' => env('SHOP_DATABASE', database_path('shop.sqlite3')),
            'prefix' => '',
            'foreign_key_constraints' => true,
        ],
    ],
    'migrations' => 'migrations',
];
