/**
 * docs/backends/php run for real: `php -S` serves the shop (checkout.php creates the checkout
 * with curl, webhook.php verifies each notification with hash_hmac), `momo-checkout serve` runs
 * as a child process, a payer pays in Chromium. Fails (never skips) without php and its curl
 * extension.
 */
import { after, before, describe, it } from 'node:test';
import { provesIntegration, startScenario, type Scenario } from './harness.js';
import { phpShop, requirePhpWithCurl } from './php-shop.js';

describe('PHP backend (docs/backends/php)', () => {
  let scenario: Scenario;
  before(async () => {
    requirePhpWithCurl();
    scenario = await startScenario(phpShop);
  });
  after(async () => scenario?.close());

  it('creates the checkout, the payer pays in Chromium, the shop verifies every notification and refuses tampered ones', async () => {
    await provesIntegration(scenario, phpShop);
  });
});
