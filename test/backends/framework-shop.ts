/**
 * What every framework shop of docs/backends/ must do, run for real (Django, Laravel): a product
 * page, the order made server side, the checkout page serving the package's script with its
 * integrity hash, the notification route (raw body, CSRF exemption, signature, the webhook-id kept
 * in the shop's database, the order fulfilled once), and the order page showing the shop's own
 * state. The shop first runs with a wrong notification secret: the payer sees "Payment received"
 * while the order stays unpaid; once the secret is fixed, `momo-checkout redeliver` sends the
 * notifications again and the order is paid, once.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { runCli as cli, postSigned, root, startScenario, type AppEnv, type Scenario } from './harness.js';

const wrongSecret = `whsec_${Buffer.from('not-the-companion-secret-32-bytes!!').toString('base64')}`;

export interface FrameworkShop {
  /** The suite's title. */
  name: string;
  /** Fails, with the command that installs it, when the framework is missing. */
  requireFramework(): void;
  /** Starts the shop on 127.0.0.1:port (detached), its database at `env.SHOP_DATABASE`. */
  start(port: number, env: AppEnv & { SHOP_DATABASE: string }): ChildProcess;
  /** The shop's tables (they follow each framework's naming). */
  tables: { orders: string; handledNotifications: string };
  /** What the framework answers a form posted without its CSRF token. */
  csrfRefusal: number;
}

/**
 * The payer on a framework shop: the order placed on the product page, then on its checkout page a
 * push number typed and Pay pressed, until "Payment received". Answers the order id and the
 * `integrity` the page pinned the element's script with.
 */
export async function orderAndPay(page: Page, shopUrl: string): Promise<{ orderId: string; integrity: string | null }> {
  await page.goto(`${shopUrl}/`);
  await page.getByRole('button', { name: 'Place the order' }).click();
  await page.waitForURL(/\/orders\/order-[0-9A-Za-z]+\/checkout$/);
  const orderId = /\/orders\/([^/]+)\/checkout$/.exec(page.url())![1]!;
  const integrity = await page.locator('script[src="/assets/momo-checkout.js"]').getAttribute('integrity');
  const field = page.getByLabel('Mobile money number');
  await field.pressSequentially('+2290196000001');
  await field.press('Tab');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 15_000 });
  return { orderId, integrity };
}

/** `momo-checkout <args>` as the merchant runs it, against the scenario's companion. */
export function describeFrameworkShop(shop: FrameworkShop): void {
  describe(shop.name, () => {
    let scenario: Scenario;
    let useWrongSecret = true;
    before(async () => {
      shop.requireFramework();
      scenario = await startScenario({
        start: (port, env) =>
          shop.start(port, {
            ...env,
            MOMO_MERCHANT_WEBHOOK_SECRET: useWrongSecret ? wrongSecret : env.MOMO_MERCHANT_WEBHOOK_SECRET,
            // The shop's own database, in the run's folder (kept across the shop's restart).
            SHOP_DATABASE: join(dirname(env.MOMO_EVENTS_FILE), 'shop.sqlite3'),
          }),
        checkoutPath: () => '/',
        webhookPath: '/momo/events',
      });
    });
    after(async () => scenario?.close());

    it('takes an order to paid in Chromium; a notification refused first is sent again with redeliver and fulfils the order once', async () => {
      const page = await scenario.browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const { orderId, integrity } = await orderAndPay(page, scenario.shopUrl);
      assert.match(integrity ?? '', /^sha384-[A-Za-z0-9+/]+=*$/, 'the script is pinned by its hash');
      // The page goes to the shop's own order page, which says what the shop's database says.
      await page.waitForURL(new RegExp(`/orders/${orderId}/$`), { timeout: 10_000 });
      assert.match(await page.locator('#order-state').innerText(), /Waiting for the payment's confirmation/, scenario.logs());

      assert.deepEqual(pageErrors, []);
      // The order page refreshes itself every 2 s while unpaid: a goto on it races that refresh
      // (net::ERR_ABORTED), and during the shop's restart below a refresh lands on the browser's
      // error page. The payer's tab is closed here and the paid order read in a fresh one.
      await page.close();

      // The merchant fixes the secret, restarts the shop, and has the notifications sent again.
      useWrongSecret = false;
      await scenario.restartShop();
      const resent = await cli(['redeliver', orderId], scenario);
      assert.equal(resent.status, 0, `${resent.stdout}\n${scenario.logs()}`);
      assert.match(resent.stdout, /completed\s+delivered \(HTTP 204\)/);
      const orderPage = await scenario.browser.newPage();
      await orderPage.goto(`${scenario.shopUrl}/orders/${orderId}/`);
      assert.match(await orderPage.locator('#order-state').innerText(), /Paid/);
      await orderPage.close();

      // Everything sent once more: skipped by the kept webhook-ids, the order fulfilled once.
      const all = await cli(['redeliver', orderId, '--all'], scenario);
      assert.equal(all.status, 0, all.stdout);
      const db = new DatabaseSync(join(dirname(scenario.eventsFile), 'shop.sqlite3'), { readOnly: true });
      try {
        const order = db.prepare(`SELECT paid, fulfilments FROM ${shop.tables.orders} WHERE order_id = ?`).get(orderId) as { paid: number; fulfilments: number };
        assert.deepEqual({ ...order }, { paid: 1, fulfilments: 1 });
        // rowid: the order the rows were written in.
        const handled = db.prepare(`SELECT state FROM ${shop.tables.handledNotifications} WHERE order_id = ? ORDER BY rowid`).all(orderId) as { state: string }[];
        assert.deepEqual(handled.map((row) => row.state), ['pending', 'completed']);
      } finally {
        db.close();
      }
    });

    it('answers the test notification, refuses a tampered one, and keeps CSRF on the order form', async () => {
      const ping = await cli(['ping'], scenario);
      assert.equal(ping.status, 0, ping.stdout);
      assert.match(ping.stdout, /OK {4}test\.ping to .*\/momo\/events: HTTP 204/);
      const event = { type: 'payment.updated', timestamp: new Date().toISOString(), data: { orderId: 'probe', idempotencyKey: 'probe.1', amount: '5000', currencyCode: 'XOF', amountMismatch: false, previousState: 'pending', payment: { state: 'completed' } } };
      assert.equal(await postSigned(scenario, event, { tamper: (body) => body.replace('"5000"', '"50"') }), 400);
      const forged = await fetch(`${scenario.shopUrl}/orders`, { method: 'POST' });
      assert.equal(forged.status, shop.csrfRefusal, 'the order form keeps its CSRF protection');
    });
  });
}
