/**
 * Issue 41: an upgrade never takes away a script-tag file a shop pinned. The Django shop of 0.1.0's
 * docs (test/fixtures/shops-0.1.0-django, unchanged) serves the element's file straight from
 * `node_modules/momo-checkout/dist/browser/momo-checkout-<version>.js` with its integrity hash, as
 * those docs said. This release is packed as `npm pack` makes it and unpacked where `npm install`
 * puts it, then the shop runs once per released version, pinning that version's file, against
 * this release's `momo-checkout serve` (refunds on): the payer pays in Chromium, the shop is
 * notified and marks its order paid, and a refund completes. Before issue 41 the package held only
 * its own version's file: the shop's checkout page failed on the missing file (no checkout at all).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readReleasedFiles } from '../../scripts/released-files.js';
import { sriOf } from '../../scripts/sri-manifest.js';
import { orderAndPay } from '../backends/framework-shop.js';
import { requireRuntime, root, startScenario, type Scenario } from '../backends/harness.js';
import { packBackend, run } from '../support/packed.js';

const python = process.env.DJANGO_PYTHON ?? '/usr/bin/python3';
const shopDir = join(root, 'test/fixtures/shops-0.1.0-django/django');
const record = await readReleasedFiles();

async function serverApi(scenario: Scenario, path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${scenario.serverUrl}${path}`, { ...init, headers: { authorization: `Bearer ${scenario.serverSecret}`, 'content-type': 'application/json' } });
  return { status: response.status, body: await response.json() };
}

describe('shops that pinned a released script-tag file from node_modules, after installing this release', { timeout: 600_000 }, () => {
  let work: string;
  /** node_modules/momo-checkout as `npm install` of this release lays it out. */
  let installed: string;
  before(async () => {
    requireRuntime(python, ['-c', 'import django; assert django.VERSION >= (3, 2)'], 'apt-get install -y python3-django (Debian 12: Django 3.2)');
    work = await mkdtemp(join(tmpdir(), 'momo-upgrade-'));
    const tarball = await packBackend(work);
    installed = join(work, 'shop', 'node_modules', 'momo-checkout');
    await mkdir(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], work);
  });
  after(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  for (const release of record.releases) {
    const pinned = release.files.find((file) => file.file === `momo-checkout-${release.version}.js`)!;
    it(`the Django shop pinning ${pinned.file} (${release.version}'s docs): paid in Chromium, notified, refunded`, async () => {
      const elementFile = join(installed, 'dist', 'browser', pinned.file);
      assert.equal(sriOf(await readFile(elementFile)), pinned.integrity, `${pinned.file} in the installed package holds the bytes ${release.version} released`);
      const scenario = await startScenario(
        {
          start: (port, env) =>
            spawn('sh', ['-c', `"${python}" manage.py migrate --noinput && exec "${python}" manage.py runserver 127.0.0.1:${port} --noreload`], {
              cwd: shopDir,
              env: {
                PATH: process.env.PATH ?? '',
                HOME: process.env.HOME ?? '',
                PYTHONDONTWRITEBYTECODE: '1',
                PYTHONUNBUFFERED: '1',
                ...env,
                // As the docs said: the file in the installed package, served by the shop itself.
                MOMO_ELEMENT_FILE: elementFile,
                SHOP_DATABASE: join(dirname(env.MOMO_EVENTS_FILE), 'shop.sqlite3'),
              },
              stdio: ['ignore', 'pipe', 'pipe'],
              detached: true,
            }),
          checkoutPath: () => '/',
          webhookPath: '/momo/events',
        },
        // 0.1.0's variables had no MOMO_MERCHANT_EVENTS; the shop answers 204 to any other type.
        { companionEnv: { MOMO_MERCHANT_EVENTS: release.version === '0.1.0' ? undefined : 'payment.updated,refund.updated', MOMO_REFUNDS: 'on' } },
      );
      try {
        const page = await scenario.browser.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        const { orderId, integrity } = await orderAndPay(page, scenario.shopUrl);
        assert.equal(integrity, pinned.integrity, 'the page pinned the released hash (and the browser ran it: it was paid)');
        // The shop's own order page: paid once its notification route took the completed update.
        await page.waitForURL(new RegExp(`/orders/${orderId}/$`), { timeout: 10_000 });
        const end = Date.now() + 15_000;
        while (!/Paid/.test(await page.locator('#order-state').innerText())) {
          assert.ok(Date.now() < end, `the shop was notified and marked the order paid\n${scenario.logs()}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await page.reload();
        }
        assert.deepEqual(pageErrors, []);
        await page.close();

        const refund = await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}/refunds`, { method: 'POST', body: JSON.stringify({ refundId: 'rf-1', amount: '1000' }) });
        assert.equal(refund.status, 200, JSON.stringify(refund.body));
        while ((await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}`)).body.refunds[0]?.state !== 'completed') {
          assert.ok(Date.now() < end + 15_000, `the refund completes\n${scenario.logs()}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The refund's notification (to the shops that take refund.updated) reaches the shop too.
        let details = await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}`);
        while (details.body.deliveries.pending.length > 0) {
          assert.ok(Date.now() < end + 30_000, `nothing waits to be retried at the shop: ${JSON.stringify(details.body.deliveries)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
          details = await serverApi(scenario, `/payments/${encodeURIComponent(orderId)}`);
        }
        assert.ok(details.body.deliveries.log.length >= 2 && details.body.deliveries.log.every((attempt: any) => attempt.ok && attempt.status === 204), JSON.stringify(details.body.deliveries.log));
        assert.doesNotMatch(scenario.logs(), /Traceback|" 500 /, 'the shop never failed');
      } finally {
        await scenario.close();
      }
    });
  }
});
