/** docs/backends/php as a shop: `php -S` on its folder (checkout.php, webhook.php), and the check that PHP can run it. */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { requireRuntime, root, type Backend } from './harness.js';

/** The plain PHP shop's files in `dir` (today's docs, or an earlier release's copy) served by `php -S`. */
export function phpShopIn(dir: string): Backend {
  return {
    start: (port, env) =>
      spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], {
        env: { PATH: process.env.PATH ?? '', PHP_CLI_SERVER_WORKERS: '4', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    checkoutPath: (orderId, amount) => `/checkout.php?order=${encodeURIComponent(orderId)}&amount=${amount}`,
    webhookPath: '/webhook.php',
  };
}

export const phpShop: Backend = phpShopIn(join(root, 'docs/backends/php'));

/** Fails (never skips) without php and its curl extension. */
export function requirePhpWithCurl(): void {
  requireRuntime('php', ['-v'], 'apt-get install -y php-cli php-curl', () => {
    const modules = spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout;
    return /^curl$/m.test(modules) ? null : "php's curl extension is missing. Install it: apt-get install -y php-curl";
  });
}
