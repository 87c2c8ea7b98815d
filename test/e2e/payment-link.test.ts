/**
 * Issue 44 in real Chromium: a payment link created through the server API is opened, paid with a
 * sandbox number on its own page (the built script-tag file, under the page's 'self'-only CSP),
 * and shows the outcome; the link's payments list it completed; a second payer on the same
 * single-use link is refused without a pay-in; an expired link shows its page; a reusable link with
 * bounds takes two payments of different amounts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { enterNumber, launchChromium } from './harness.js';
import { axeViolations, describeViolations } from '../support/axe.js';

const secret = 'test-server-secret-link-e2e-0123456789abcdef';
const approves = '+2290196000001';
const neverAnswers = '+2290196000003';

let h: Harness;
let browser: Browser;
before(async () => {
  const build = await builtOnce();
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: build.outDir }, { pushDelayMs: 300 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await h?.close();
  await removeBuild();
});

async function api(path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${h.base}/server${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

/** A page that records CSP violations and uncaught errors. */
async function payerPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP ${event.violatedDirective} ${event.blockedURI}`)));
  // Failed loads are counted from the answers (Chromium also logs each one on the console).
  page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 400 && path !== '/favicon.ico' && !path.endsWith('/checkout/pay')) problems.push(`${response.status()} ${path}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

/** Opens the link, presses its button (typing `amount` first when the payer chooses), and types the number. */
async function startPaying(page: Page, url: string, phoneNumber: string, amount?: string): Promise<void> {
  await page.goto(url);
  if (amount !== undefined) {
    await page.getByLabel('Amount (XOF)').fill(amount);
    await page.getByRole('button', { name: 'Continue' }).click();
  } else {
    await page.getByRole('button', { name: 'Pay Maison Adjoa' }).click();
  }
  await enterNumber(page, phoneNumber);
  await page.getByText('MTN MoMo').first().waitFor();
  await page.getByRole('button', { name: /^Pay / }).click();
}

describe('e2e: a payment link in Chromium', () => {
  it('is opened, paid with a sandbox number, shows the outcome, and lists the payment completed', async () => {
    const link = await api('/links', { currencyCode: 'XOF', description: 'Pagne wax, 6 yards', amount: '5000' });
    const { page, problems } = await payerPage();
    await startPaying(page, link.url, approves);
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    assert.deepEqual(problems, [], 'no CSP violation, console error or uncaught exception');
    const read = await api(`/links/${link.linkId}`);
    assert.deepEqual(read.payments.map((payment: any) => [payment.orderId, payment.state]), [[`${link.linkId}-${Date.parse(link.createdAt).toString(36)}-1`, 'completed']]);
    await page.context().close();
  });

  it('refuses a second payer on the same single-use link without a pay-in', async () => {
    const link = await api('/links', { currencyCode: 'XOF', description: 'Sac en raphia', amount: '3000' });
    const first = await payerPage();
    const second = await payerPage();
    // Both open the page and press its button before either pays.
    await first.page.goto(link.url);
    await second.page.goto(link.url);
    await first.page.getByRole('button', { name: 'Pay Maison Adjoa' }).click();
    await second.page.getByRole('button', { name: 'Pay Maison Adjoa' }).click();
    await enterNumber(first.page, neverAnswers);
    await first.page.getByRole('button', { name: /^Pay / }).click();
    await first.page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor();
    const payInsBefore = h.sandbox.control.transactions().length;
    await enterNumber(second.page, approves);
    await second.page.getByText('MTN MoMo').first().waitFor();
    await second.page.getByRole('button', { name: /^Pay / }).click();
    await second.page.getByText('This payment link was just used by someone else', { exact: false }).waitFor();
    assert.equal(h.sandbox.control.transactions().length, payInsBefore, 'no pay-in for the second payer');
    await first.page.context().close();
    await second.page.context().close();
  });

  it('shows an expired link its page, with 410', async () => {
    const link = await api('/links', { currencyCode: 'XOF', description: 'Soldes', amount: '1000', expiresAt: new Date(Date.now() + 1_000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const { page } = await payerPage();
    const response = await page.goto(link.url);
    assert.equal(response?.status(), 410);
    await page.getByRole('heading', { name: 'This payment link has expired.' }).waitFor();
    await page.context().close();
  });

  it('takes two payments of different amounts through a reusable link with bounds', async () => {
    const link = await api('/links', { currencyCode: 'XOF', description: 'Don', minAmount: '1000', maxAmount: '20000', reusable: true });
    for (const amount of ['1500', '12000']) {
      const { page } = await payerPage();
      await startPaying(page, link.url, approves, amount);
      await page.getByRole('heading', { name: 'Payment received' }).waitFor();
      await page.context().close();
    }
    const read = await api(`/links/${link.linkId}`);
    assert.deepEqual(read.payments.map((payment: any) => [payment.amount, payment.state]), [['1500', 'completed'], ['12000', 'completed']]);
    assert.equal(read.state, 'open', 'a reusable link without a cap stays open');
  });

  it("has no accessibility violation (axe) on the link's pages: the amount, the field within bounds, a refused amount, the checkout, the closed link", async () => {
    const fixed = await api('/links', { currencyCode: 'XOF', description: 'Pagne wax', amount: '5000' });
    const bounds = await api('/links', { currencyCode: 'XOF', description: 'Don', minAmount: '1000', maxAmount: '20000', reusable: true });
    const { page } = await payerPage();
    for (const url of [fixed.url, bounds.url, `${bounds.url}?lang=ar`]) {
      await page.goto(url);
      assert.equal(describeViolations(await axeViolations(page)), '', url);
    }
    // A refused amount: the field marked invalid, described by the sentence (role="alert").
    await page.goto(`${bounds.url}?lang=fr`);
    await page.getByLabel('Montant (XOF)').fill('12,5');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByRole('alert').filter({ hasText: 'Écrivez le montant en chiffres, par exemple 2500.' }).waitFor();
    assert.equal(describeViolations(await axeViolations(page)), '', 'the refused amount');
    await page.goto(fixed.url);
    await page.getByRole('button', { name: 'Pay Maison Adjoa' }).click();
    await page.getByLabel('Mobile money number').waitFor();
    assert.equal(describeViolations(await axeViolations(page)), '', 'the checkout page');
    await api(`/links/${fixed.linkId}/close`, {});
    await page.goto(fixed.url);
    assert.equal(describeViolations(await axeViolations(page)), '', 'the closed link page');
    await page.context().close();
  });
});
