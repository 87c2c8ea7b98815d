/**
 * docs/backends/php run for real: `php -S` serves the shop (checkout.php creates the checkout
 * with curl, webhook.php verifies each notification with hash_hmac), `momo-checkout serve` runs
 * as a child process, a payer pays in Chromium. Fails (never skips) without php and its curl
 * extension.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { provesIntegration, requireRuntime, root, startScenario, type Backend, type Scenario } from './harness.js';

const backend: Backend = {
  start: (port, env) =>
    spawn('php', ['-S', `127.0.0.1:${port}`, '-t', join(root, 'docs/backends/php')], {
      env: { PATH: process.env.PATH ?? '', PHP_CLI_SERVER_WORKERS: '4', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  checkoutPath: (orderId, amount) => `/checkout.php?order=${encodeURIComponent(orderId)}&amount=${amount}`,
  webhookPath: '/webhook.php',
};

describe('PHP backend (docs/backends/php)', () => {
  let scenario: Scenario;
  before(async () => {
    requireRuntime('php', ['-v'], 'apt-get install -y php-cli php-curl', () => {
      const modules = spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout;
      return /^curl$/m.test(modules) ? null : "php's curl extension is missing. Install it: apt-get install -y php-curl";
    });
    scenario = await startScenario(backend);
  });
  after(async () => scenario?.close());

  it('creates the checkout, the payer pays in Chromium, the shop verifies every notification and refuses tampered ones', async () => {
    await provesIntegration(scenario, backend);
  });
});
