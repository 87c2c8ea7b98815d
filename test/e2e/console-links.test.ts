/**
 * Issue 44's console part in real Chromium: a shop that has taken a payment signs in, creates a
 * payment link in two fields (the currency is the shop's), sees its URL, its QR code and its
 * WhatsApp link, copies the URL (the clipboard holds it, the status says so); a payer opens the URL
 * in another page and pays it with a sandbox number; back in the console the link lists the payment
 * completed; the operator closes a second link after a confirmation and its page then answers 410.
 * axe finds no violation on the new section, its detail view and the confirmation, and both pages fit 320 px.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildConsole } from '../../scripts/build-console.js';
import { axeViolations, describeViolations } from '../support/axe.js';
import { readQrCodeOnScreen } from '../support/qr-read.js';
import { newOrderId, startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { enterNumber, launchChromium } from './harness.js';

const serverSecret = 'console-links-e2e-server-secret-0123456789';
const approves = '+2290196000001';

describe('console payment links in Chromium', () => {
  let harness: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let assetsDir: string;
  let linkUrl = '';

  before(async () => {
    assetsDir = await mkdtemp(join(tmpdir(), 'momo-console-links-'));
    await buildConsole(assetsDir);
    const build = await builtOnce();
    harness = await startHarness({ serverSecret, consoleAssetsDir: assetsDir, elementAssetsDir: build.outDir, shopName: 'Maison Adjoa', setupChecksAtStart: false }, { pushDelayMs: 300 });
    // The shop has sold before: its payment tells the console its currency.
    const orderId = newOrderId();
    const token = await harness.checkout(orderId, '2500', 'XOF');
    assert.equal((await harness.call('/checkout/pay', { token, body: { phoneNumber: approves, useWallet: false } })).status, 200);
    await harness.waitFor(orderId, (view) => view.state === 'completed');
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harness.base).origin });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
    await rm(assetsDir, { recursive: true, force: true });
    await removeBuild();
  });

  it('creates a link in two fields and shows its URL, QR code, WhatsApp link and a copy button that copies', async () => {
    await page.goto(`${harness.base}/console`);
    await page.getByLabel('Secret or password').fill(serverSecret);
    await page.getByLabel('Secret or password').press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('heading', { name: 'Payment links', level: 2 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'No payment link yet.' }).waitFor();
    assert.equal(describeViolations(await axeViolations(page)), '');

    await page.getByLabel('What the payer pays for').fill('Pagne wax, 6 yards');
    await page.getByLabel('Amount (XOF)').fill('5000');
    await page.getByRole('button', { name: 'Create the link' }).click();
    const address = page.getByLabel("The link's address");
    await address.waitFor();
    linkUrl = await address.inputValue();
    assert.match(linkUrl, new RegExp(`^${harness.base}/l/[A-Za-z0-9][\\w-]{22}$`));
    const qr = page.getByRole('img', { name: 'QR code of the link for Pagne wax, 6 yards' });
    await qr.waitFor();
    assert.equal(await readQrCodeOnScreen(() => qr.screenshot()), linkUrl, "a phone's camera reads the link's address off the screen");
    const whatsApp = page.getByRole('link', { name: 'Share on WhatsApp' });
    assert.equal(await whatsApp.getAttribute('href'), `https://wa.me/?text=${encodeURIComponent(`Pagne wax, 6 yards ${linkUrl}`)}`);

    await page.getByRole('button', { name: 'Copy the address' }).click();
    await page.getByRole('status').filter({ hasText: 'Address copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), linkUrl);
    const row = page.getByRole('row').filter({ hasText: 'Pagne wax, 6 yards' });
    await row.waitFor();
    assert.match(await row.innerText(), /5,000.*Open\s+0/s);
    assert.equal(describeViolations(await axeViolations(page)), '');
  });

  it('lists the payment completed once a payer has paid the link on its page', async () => {
    const payer = await browser.newContext({ locale: 'en-US' });
    const payerPage = await payer.newPage();
    await payerPage.goto(linkUrl);
    await payerPage.getByRole('button', { name: 'Pay Maison Adjoa' }).click();
    await enterNumber(payerPage, approves);
    await payerPage.getByText('MTN MoMo').first().waitFor();
    await payerPage.getByRole('button', { name: /^Pay / }).click();
    await payerPage.getByRole('heading', { name: 'Payment received' }).waitFor();
    await payer.close();

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Pagne wax, 6 yards' });
    await row.waitFor();
    assert.match(await row.innerText(), /Used up\s+1/);
    await row.getByRole('link', { name: 'Pagne wax, 6 yards' }).click();
    const linkId = linkUrl.split('/').at(-1)!;
    const payment = page.getByRole('row').filter({ hasText: new RegExp(`${linkId}-[0-9a-z]+-1`) });
    await payment.waitFor();
    assert.match(await payment.innerText(), /Completed\s+\D*5,000/);
    assert.equal(await page.getByRole('button', { name: 'Close…' }).count(), 0, 'a used-up link has nothing to close');
    assert.equal(describeViolations(await axeViolations(page)), '');
  });

  it('closes a link after a confirmation, and its page then answers 410', async () => {
    await page.getByRole('link', { name: 'All payment links' }).click();
    await page.getByLabel('What the payer pays for').fill('Sac en raphia');
    await page.getByLabel('Amount (XOF)').fill('3000');
    await page.getByRole('button', { name: 'Create the link' }).click();
    const address = page.getByLabel("The link's address");
    await page.getByRole('heading', { name: 'Link created: Sac en raphia' }).waitFor();
    const url = await address.inputValue();
    assert.equal((await fetch(url)).status, 200);
    await page.getByRole('row').filter({ hasText: 'Sac en raphia' }).getByRole('link').click();
    await page.getByRole('button', { name: 'Close…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the link' });
    await dialog.waitFor();
    assert.equal(describeViolations(await axeViolations(page)), '');
    await dialog.getByRole('button', { name: 'Yes, close it' }).click();
    await page.locator('#link-state').filter({ hasText: 'Closed' }).waitFor();
    assert.equal((await fetch(url)).status, 410);
  });

  it('shows the rules\' sentence for a bad amount', async () => {
    await page.getByRole('link', { name: 'All payment links' }).click();
    await page.getByLabel('What the payer pays for').fill('Pagne');
    await page.getByLabel('Amount (XOF)').fill('10.5');
    await page.getByRole('button', { name: 'Create the link' }).click();
    await page.getByRole('alert').filter({ hasText: /decimal/i }).waitFor();
  });

  it("is usable at 320 px: the links page and a link's page are no wider than the screen", async () => {
    await page.setViewportSize({ width: 320, height: 800 });
    const linkId = linkUrl.split('/').at(-1)!;
    for (const hash of ['#/links', `#/links/${linkId}`]) {
      await page.evaluate((target) => (location.hash = target), hash);
      await page.waitForTimeout(300);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `${hash} is ${width} px wide at 320 px`);
    }
  });
});
