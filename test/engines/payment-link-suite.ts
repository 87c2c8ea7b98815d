/**
 * Issue 44 in Firefox and WebKit (firefox.test.ts, webkit.test.ts): a payment link created through
 * the server API is opened on its own page (the built script-tag file), paid with a sandbox number
 * and shows the outcome; its payments list it completed; an expired link shows its page. Chromium
 * runs these and more in test/e2e/payment-link.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { EnginePage, type EngineDriver } from './engine-page.js';
import type { EngineSuite } from './engine-suite.js';

const secret = 'engines-link-server-secret-0123456789abcdef';
const pushApproves = '+2290196000001';

export function paymentLinkSuite(suite: Pick<EngineSuite, 'engine' | 'open'>): void {
  const { engine } = suite;
  describe(`engines: ${engine}, payment links`, () => {
    let h: Harness;
    let driver: EngineDriver;
    let page: EnginePage;
    const api = async (path: string, body?: unknown): Promise<any> =>
      (
        await fetch(`${h.base}/server${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
      ).json();

    before(async () => {
      const build = await builtOnce();
      h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: build.outDir }, { pushDelayMs: 300 });
      driver = await suite.open(1280, 900);
      page = new EnginePage(driver);
    });
    after(async () => {
      await driver?.close();
      await h?.close();
      await removeBuild();
    });

    it(`${engine}: a payment link opened, paid with a sandbox number, and listed completed`, async () => {
      const link = await api('/links', { currencyCode: 'XOF', description: 'Pagne wax', amount: '5000' });
      await page.goto(link.url);
      await page.click('button', 'Pay Maison Adjoa', { navigates: true });
      await page.fill('Mobile money number', pushApproves, 'Tab');
      await page.waitForText('MTN MoMo');
      await page.click('button', /^Pay /);
      await page.waitForRole('heading', 'Payment received');
      const read = await api(`/links/${link.linkId}`);
      assert.deepEqual(read.payments.map((payment: any) => payment.state), ['completed']);
      assert.deepEqual(driver.problems(), [], 'no console error, no uncaught exception');
    });

    it(`${engine}: an expired payment link shows its page`, async () => {
      const link = await api('/links', { currencyCode: 'XOF', description: 'Soldes', amount: '1000', expiresAt: new Date(Date.now() + 1_000).toISOString() });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await page.goto(link.url);
      await page.waitForRole('heading', 'This payment link has expired.');
    });
  });
}
