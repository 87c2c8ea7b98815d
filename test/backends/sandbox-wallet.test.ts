/**
 * `npx momo-checkout serve --sandbox` for a shop that is not Node: with no service variable, the
 * companion answers /healthz, and a payer on the PHP shop's page (docs/backends/php, another
 * origin) completes the approval-page (wallet) flow in Chromium: the approval page on the
 * companion's origin, Approve, back to the shop's page, "Payment received", and the shop's
 * endpoint verifies each transition.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { payOnShopPage, startScenario, waitForEvents, type Scenario } from './harness.js';
import { phpShop, requirePhpWithCurl } from './php-shop.js';

describe('serve --sandbox with a PHP shop', () => {
  let scenario: Scenario;
  before(async () => {
    requirePhpWithCurl();
    scenario = await startScenario(phpShop, { sandboxInServe: true });
  });
  after(async () => scenario?.close());

  it('answers /healthz with no service variable, and the approval-page flow completes in Chromium from the shop\'s page', async () => {
    const companionOrigin = new URL(scenario.serverUrl).origin;
    assert.equal((await fetch(`${companionOrigin}/healthz`)).status, 200);

    const orderId = `order-wallet-${Date.now()}`;
    await payOnShopPage(scenario, phpShop, orderId, async (page) => {
      await page.getByRole('radio', { name: 'Pay with Wallet' }).check();
      await page.getByRole('button', { name: /^Pay / }).click();
      // A desktop browser is offered the approval page as a QR code for the phone; the payer stays here.
      await page.getByRole('img', { name: /^QR code of the approval page on / }).waitFor();
      await page.getByRole('link', { name: 'Continue on this device instead' }).click();
      // Same-tab navigation to the approval page, served by serve --sandbox on the companion's origin.
      await page.waitForURL((url) => url.origin === companionOrigin, { timeout: 15_000 });
      await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      // Back on the shop's own page for the order (its return URL), where the element says the outcome.
      await page.waitForURL((url) => url.origin === scenario.shopUrl && url.pathname === '/checkout.php', { timeout: 15_000 });
      await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 15_000 });
    });
    // Each transition of the approval-page flow reached the shop's endpoint and passed its verification.
    const events = await waitForEvents(scenario, orderId, 3);
    assert.deepEqual(events.map((event) => event.state), ['awaiting-redirect', 'redirect-ready', 'completed']);
  });
});
