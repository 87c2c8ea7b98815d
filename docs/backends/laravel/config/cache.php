<?php
// The console's commands need a cache (migrate takes a lock with it); this shop keeps nothing in it.
return [
    'default' => 'array',
    'stores' => ['array' => ['driver' => 'array', 'serialize' => false]],
    'prefix' => 'shop',
];
