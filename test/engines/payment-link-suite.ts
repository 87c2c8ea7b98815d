/**
 * Issue 44 in Firefox and WebKit (firefox.test.ts, webkit.test.ts), the same cases as Chromium's
 * test/e2e/payment-link.test.ts: a payment link created through the server API is opened on its own
 * page (the built script-tag file), paid with a sandbox number and shows the outcome, and its
 * payments list it completed; a second payer on the same single-use link is refused without a
 * pay-in; an expired link shows its 410 page; a reusable link with payer-chosen bounds takes two
 * payments of different amounts.
 *
 * One browser page for the whole suite, on one companion and sandbox: the engine's start is most
 * of its time. The racing first payer is a plain HTTP client (the page's form, then the pay route),
 * so that the browser is the payer who is refused and the one whose page says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { EnginePage, type EngineDriver } from './engine-page.js';
import type { EngineSuite } from './engine-suite.js';

const secret = 'engines-link-server-secret-0123456789abcdef';
// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts).
const pushApproves = '+2290196000001';
const neverAnswers = '+2290196000003';

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
    /** The pay-ins the sandbox was sent for this link's orders (`<linkId>-<n>`). */
    const payInsOf = (linkId: string) => h.sandbox.control.transactions().filter((transaction) => transaction.orderId.startsWith(`${linkId}-`));

    /** Another payer, as their browser would: the link page's form, then the pay route with the checkout's token. */
    async function payFromAnotherPhone(url: string, phoneNumber: string): Promise<void> {
      const origin = new URL(url).origin;
      const form = await fetch(url, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      const token = /\btoken="([^"]+)"/.exec(await form.text())?.[1];
      assert.ok(token, `the link's form answered a checkout (${form.status})`);
      const pay = await fetch(`${h.base}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber, useWallet: false }),
      });
      assert.equal(pay.status, 200, `the other payer's pay was accepted: ${await pay.text()}`);
    }

    /** Opens the link, presses its button (typing `amount` first when the payer chooses), types the number and pays. */
    async function payInPage(url: string, amount?: string): Promise<void> {
      await page.goto(url);
      if (amount === undefined) {
        await page.click('button', 'Pay Maison Adjoa', { navigates: true });
      } else {
        await page.fill('Amount (XOF)', amount);
        await page.click('button', 'Continue', { navigates: true });
      }
      await page.fill('Mobile money number', pushApproves, 'Tab');
      await page.waitForText('MTN MoMo');
      await page.click('button', /^Pay /);
    }

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
      await payInPage(link.url);
      await page.waitForRole('heading', 'Payment received');
      const read = await api(`/links/${link.linkId}`);
      assert.deepEqual(read.payments.map((payment: any) => [payment.orderId, payment.amount, payment.state]), [[`${link.linkId}-${Date.parse(link.createdAt).toString(36)}-1`, '5000', 'completed']]);
      assert.deepEqual(driver.problems(), [], 'no console error, no uncaught exception');
    });

    it(`${engine}: a second payer on a single-use link is refused without a pay-in, and told the link was just used`, async () => {
      const link = await api('/links', { currencyCode: 'XOF', description: 'Sac en raphia', amount: '3000' });
      // This payer has the checkout on screen when another one pays first (and waits on their phone).
      await page.goto(link.url);
      await page.click('button', 'Pay Maison Adjoa', { navigates: true });
      await page.fill('Mobile money number', pushApproves, 'Tab');
      await page.waitForText('MTN MoMo');
      await payFromAnotherPhone(link.url, neverAnswers);
      const firstPayIns = payInsOf(link.linkId).map((transaction) => transaction.orderId);
      assert.equal(firstPayIns.length, 1, "the other payer's pay-in was posted");
      await page.click('button', /^Pay /);
      await page.waitForText('This payment link was just used by someone else');
      assert.deepEqual(
        payInsOf(link.linkId).map((transaction) => transaction.orderId),
        firstPayIns,
        "no pay-in for this payer: only the other payer's order reached the service",
      );
    });

    it(`${engine}: an expired payment link shows its page, with 410`, async () => {
      const link = await api('/links', { currencyCode: 'XOF', description: 'Soldes', amount: '1000', expiresAt: new Date(Date.now() + 1_000).toISOString() });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // Neither driver gives a page's status: the same URL asked over HTTP says it.
      assert.equal((await fetch(link.url)).status, 410);
      await page.goto(link.url);
      await page.waitForRole('heading', 'This payment link has expired.');
    });

    it(`${engine}: a reusable link with payer-chosen bounds takes two payments of different amounts`, async () => {
      const link = await api('/links', { currencyCode: 'XOF', description: 'Don', minAmount: '1000', maxAmount: '20000', reusable: true });
      for (const amount of ['1500', '12000']) {
        await payInPage(link.url, amount);
        await page.waitForRole('heading', 'Payment received');
      }
      const read = await api(`/links/${link.linkId}`);
      assert.deepEqual(read.payments.map((payment: any) => [payment.amount, payment.state]), [['1500', 'completed'], ['12000', 'completed']]);
      assert.equal(read.state, 'open', 'a reusable link without a cap stays open');
    });
  });
}
