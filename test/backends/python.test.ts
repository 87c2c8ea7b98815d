/**
 * docs/backends/python run for real: shop.py (http.server) creates the checkout with urllib and
 * verifies each notification with hmac, `momo-checkout serve` runs as a child process, a payer
 * pays in Chromium. Fails (never skips) without python3.
 */
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { provesIntegration, requireRuntime, root, startScenario, type Scenario } from './harness.js';
import { pythonShopIn } from './python-shop.js';

const backend = pythonShopIn(join(root, 'docs/backends/python'));

describe('Python backend (docs/backends/python)', () => {
  let scenario: Scenario;
  before(async () => {
    requireRuntime('python3', ['--version'], 'apt-get install -y python3 (3.9 or newer)');
    scenario = await startScenario(backend);
  });
  after(async () => scenario?.close());

  it('creates the checkout, the payer pays in Chromium, the shop verifies every notification and refuses tampered ones', async () => {
    await provesIntegration(scenario, backend);
  });
});
