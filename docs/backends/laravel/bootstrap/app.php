<?php
// The application, from Debian's php-laravel-framework (Laravel 8): its autoloader instead of
// Composer's, which this shop does not need. With Composer, `require __DIR__.'/../vendor/autoload.php'`.
require_once 'Illuminate/autoload.php';

// This shop's own classes (App\...), the PSR-4 mapping Composer would write.
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = dirname(__DIR__) . '/app/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

// The helper of docs/backends/php (momo_create_checkout, momo_verify_webhook, MomoError): copy
// momo.php into your project (Composer: its "files" autoload); here it is read from its folder.
require_once dirname(__DIR__, 2) . '/php/momo.php';

$app = new Illuminate\Foundation\Application(dirname(__DIR__));

// Sessions and compiled views go where SHOP_STORAGE says (the tests: a folder of their own run),
// so the shop's folder can stay read-only (it is inside the installed package).
$storage = getenv('SHOP_STORAGE') ?: dirname(__DIR__) . '/storage';
foreach (['framework/sessions', 'framework/views', 'framework/cache', 'logs'] as $folder) {
    is_dir("$storage/$folder") || mkdir("$storage/$folder", 0700, true);
}
$app->useStoragePath($storage);
// The framework's caches too (the variables Laravel reads for them; by default bootstrap/cache).
foreach (['SERVICES' => 'services', 'PACKAGES' => 'packages', 'CONFIG' => 'config', 'ROUTES' => 'routes-v7', 'EVENTS' => 'events'] as $key => $file) {
    $_SERVER["APP_{$key}_CACHE"] ??= "$storage/framework/cache/$file.php";
}

$app->singleton(Illuminate\Contracts\Http\Kernel::class, App\Http\Kernel::class);
$app->singleton(Illuminate\Contracts\Console\Kernel::class, Illuminate\Foundation\Console\Kernel::class);
$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, Illuminate\Foundation\Exceptions\Handler::class);

return $app;
