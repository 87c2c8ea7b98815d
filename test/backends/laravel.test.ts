/**
 * docs/backends/laravel run for real, in Debian's Laravel 8 (php-laravel-framework, its own
 * autoloader, no Composer): the framework shop's suite (framework-shop.ts). Fails (never skips)
 * without Laravel or PHP's SQLite driver.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describeFrameworkShop } from './framework-shop.js';
import { requireRuntime, root } from './harness.js';

const shopDir = join(root, 'docs/backends/laravel');
const install = 'apt-get install -y php-cli php-curl php-sqlite3 php-laravel-framework';

describeFrameworkShop({
  name: 'Laravel backend (docs/backends/laravel)',
  requireFramework: () =>
    requireRuntime('php', ['-r', "require 'Illuminate/autoload.php'; exit(version_compare(Illuminate\\Foundation\\Application::VERSION, '8', '>=') ? 0 : 1);"], install, () =>
      /^pdo_sqlite$/m.test(spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout) ? null : `PHP's SQLite driver is missing. Install it: ${install}`,
    ),
  start: (port, env) =>
    spawn('sh', ['-c', `touch "$SHOP_DATABASE" && php artisan migrate --force && exec php -S 127.0.0.1:${port} -t public public/index.php`], {
      cwd: shopDir,
      env: {
        PATH: process.env.PATH ?? '',
        PHP_CLI_SERVER_WORKERS: '4',
        // The shop's APP_KEY (Laravel encrypts its cookies with it): a fixed one for the tests.
        APP_KEY: `base64:${Buffer.from('laravel-shop-test-app-key-32-byt').toString('base64')}`,
        // Sessions, compiled views and caches in the run's folder: the shop's folder stays untouched.
        SHOP_STORAGE: join(dirname(env.SHOP_DATABASE), 'laravel-storage'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  tables: { orders: 'orders', handledNotifications: 'handled_notifications' },
  // Laravel's answer to a form without its token ("page expired").
  csrfRefusal: 419,
});
