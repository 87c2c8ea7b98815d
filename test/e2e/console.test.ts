/**
 * The operations console in Chromium, against the sandbox: an order created through the server API
 * and paid, its notification to the merchant's endpoint refused (HTTP 500); the operator signs in
 * (after a wrong secret is refused), finds the order, sees the failed delivery, re-sends it once the
 * endpoint is fixed, sees it delivered, downloads the payments export (xlsx and CSV), and refunds part of it after a confirmation. The overview's pictures and stuck payments are
 * photographed; every step is taken with the keyboard; axe finds no violation on each page; the page holds at 320 px; a POST without the
 * CSRF token is refused; signing out ends the session, a copy of its cookie included.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildConsole } from '../../scripts/build-console.js';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { csrfHeader } from '../../src/contract/console.js';
import { axeViolations, describeViolations } from '../support/axe.js';
import { merchantSecret, startReceiver } from '../server/deliveries/merchant-receiver.js';
import { newOrderId, startHarness, type Harness } from '../server/harness.js';
import { screenshotDir } from './harness.js';

const serverSecret = 'console-e2e-server-secret-0123456789abcdef';
const push = { approve: '+2290196000001', noAnswer: '+2290196000003' };

describe('operations console in Chromium', () => {
  let harness: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  let assetsDir: string;
  let endpointAnswers = 500;
  const paidOrder = newOrderId();
  const stuckOrder = newOrderId();
  const unpaidOrder = newOrderId();

  const pay = async (orderId: string, phoneNumber: string) => {
    const created = await fetch(`${harness.base}/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { token } = (await created.json()) as { token: string };
    const paid = await harness.call('/checkout/pay', { token, body: { phoneNumber, useWallet: false } });
    assert.equal(paid.status, 200, await paid.text());
  };

  before(async () => {
    assetsDir = await mkdtemp(join(tmpdir(), 'momo-console-assets-'));
    await buildConsole(assetsDir);
    receiver = await startReceiver();
    receiver.answer = () => endpointAnswers;
    harness = await startHarness({
      serverSecret,
      merchantWebhookUrl: receiver.url,
      merchantWebhookSecret: merchantSecret,
      merchantEvents: ['payment.updated', 'refund.updated', 'test.ping'],
      consoleAssetsDir: assetsDir,
      // Every open payment counts as stuck at once, so the stuck list has one to show.
      staleAfterMinutes: 0,
      // A refused notification waits an hour for its retry: only the re-send brings it.
      deliveryRetryDelaysMs: [3_600_000],
      refunds: true,
    });
    await pay(paidOrder, push.approve);
    await harness.waitFor(paidOrder, (view) => view.state === 'completed');
    await pay(stuckOrder, push.noAnswer);
    // A checkout the payer has not paid (yet): the search says so rather than "no payment matches".
    const unpaid = await fetch(`${harness.base}/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: unpaidOrder, amount: '2500', currencyCode: 'XOF' }),
    });
    assert.equal(unpaid.status, 200, await unpaid.text());
    const until = Date.now() + 5_000;
    // Its first notification (pending) is refused; the completed one waits behind it (each order's in order).
    while (!receiver.received.some((item) => item.answered === 500 && item.body.includes(paidOrder))) {
      if (Date.now() > until) throw new Error('no notification of the paid order reached the endpoint');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
    await receiver?.close();
    await rm(assetsDir, { recursive: true, force: true });
  });

  it('asks for sign-in and refuses a wrong secret', async () => {
    await page.goto(`${harness.base}/console`);
    await page.getByLabel('Secret or password').fill('this-is-not-the-secret');
    const [answer] = await Promise.all([page.waitForResponse((response) => response.url().includes('/console/sign-in')), page.getByLabel('Secret or password').press('Enter')]);
    assert.equal(answer.status(), 401);
    await page.getByRole('alert').filter({ hasText: 'not the right one' }).waitFor();
    assert.deepEqual(describeViolations(await axeViolations(page)), '');
  });

  it('signs in with the keyboard and shows the pictures and the stuck payment (screenshot)', async () => {
    await page.getByLabel('Secret or password').fill(serverSecret);
    await page.getByLabel('Secret or password').press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText('Payments per hour, last 24 hours').waitFor();
    const stuck = page.locator('momo-console-overview li').filter({ hasText: stuckOrder });
    await stuck.waitFor();
    assert.match(await stuck.innerText(), /Ask its support to re-emit|ask its support/i);
    await page.getByRole('table', { name: 'Completion rate per operator' }).waitFor();
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'console-overview.png'), fullPage: true });
    assert.equal(describeViolations(await axeViolations(page)), '');
  });

  it('finds the order created through the server API, with its state', async () => {
    await page.getByRole('link', { name: 'Payments' }).press('Enter');
    await page.getByLabel('Order id').fill(paidOrder);
    await page.getByLabel('Order id').press('Enter');
    const row = page.getByRole('row').filter({ hasText: paidOrder });
    await row.waitFor();
    assert.match(await row.innerText(), /Completed/);
    assert.match(await row.innerText(), /5,000|5 000|5000/);
    assert.equal(describeViolations(await axeViolations(page)), '');
  });

  it('downloads the payments export (xlsx and CSV) from the payments page, through the console session', async () => {
    const exportSection = page.locator('momo-console-export');
    await exportSection.getByRole('heading', { name: 'Export for the accountant' }).waitFor();
    const [workbook] = await Promise.all([page.waitForEvent('download'), exportSection.getByRole('link', { name: 'Download the workbook (xlsx)' }).click()]);
    assert.match(workbook.suggestedFilename(), /^payments-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const { strFromU8, unzipSync } = await import('fflate');
    const sheet = strFromU8(unzipSync((await import('node:fs')).readFileSync(await workbook.path()))['xl/worksheets/payments1.xml']!);
    assert.ok(sheet.includes(`<t>${paidOrder}</t>`), `the paid order is in this month's workbook`);
    const [download] = await Promise.all([page.waitForEvent('download'), exportSection.getByRole('link', { name: 'Download the CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^payments-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    assert.ok(text.startsWith('\uFEFF"created_at","finished_at","order_id"'), text.slice(0, 80));
    const row = text.split('\r\n').find((line) => line.includes(`"${paidOrder}"`));
    assert.ok(row, `the paid order is in this month's file:\n${text}`);
    assert.match(row, /,5000,"XOF","completed",/);
    // The last day before the first: no link, a sentence instead.
    await exportSection.getByLabel('Through (UTC, included)').fill('2020-01-01');
    await exportSection.getByRole('alert').filter({ hasText: 'The first day must come before the last.' }).waitFor();
    assert.equal(await exportSection.getByRole('link', { name: 'Download the CSV' }).count(), 0);
    assert.equal(await exportSection.getByRole('link', { name: 'Download the workbook (xlsx)' }).count(), 0);
  });

  it('shows the failed delivery, re-sends it and shows it delivered', async () => {
    await page.getByRole('link', { name: paidOrder }).press('Enter');
    const timeline = page.getByRole('list').filter({ hasText: 'Notification to your endpoint' });
    await timeline.getByText('not delivered').first().waitFor();
    assert.match(await timeline.innerText(), /HTTP 500, \d+ ms/);
    assert.equal(describeViolations(await axeViolations(page)), '');

    endpointAnswers = 204;
    await page.getByRole('button', { name: 'Re-send notifications' }).press('Enter');
    // Both of its notifications (pending, then completed) go, in order.
    await page.getByRole('status').filter({ hasText: 'Sent again: 2 of 2 delivered.' }).waitFor();
    await timeline.getByText('Notification to your endpoint: delivered').first().waitFor();
    assert.match(await timeline.innerText(), /delivered \(HTTP 204, \d+ ms\)/);
  });

  it('refunds after a confirmation that repeats the amount and the masked number', async () => {
    await page.getByLabel(/Amount to refund/).fill('1000');
    await page.getByRole('button', { name: 'Refund…' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm the refund' });
    await dialog.waitFor();
    const sentence = await dialog.innerText();
    assert.match(sentence, /1,000/);
    assert.match(sentence, /\+229[ •\d]*•/, 'the number is masked');
    assert.doesNotMatch(sentence, /0196000001/, 'never the full number');
    assert.equal(describeViolations(await axeViolations(page)), '');
    await dialog.getByRole('button', { name: 'Yes, refund' }).press('Enter');
    await page.getByRole('status').filter({ hasText: /Refund recorded: (pending|completed)/ }).waitFor();
    await page.getByText(/Refund of \D*1,000\D*: (pending|completed)/).waitFor();
  });

  it('keeps the refund after a lost answer: trying again sends the same refund and pays once', async () => {
    const payouts = () => harness.sandbox.control.transactions().filter((entry) => entry.kind === 'payout' && entry.orderId.startsWith(paidOrder)).length;
    const before = payouts();
    // The first request is held until the page has been seen saying it is in flight, then its
    // answer is dropped after the server has handled the refund ("Failed to fetch").
    let dropped = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/console/api/payments/*/refunds', async (route) => {
      if (dropped > 0) return route.continue();
      dropped++;
      await released;
      await route.fetch();
      await route.abort('failed');
    });
    try {
      await page.getByLabel(/Amount to refund/).fill('1500');
      await page.getByRole('button', { name: 'Refund…' }).press('Enter');
      await page.getByRole('dialog', { name: 'Confirm the refund' }).getByRole('button', { name: 'Yes, refund' }).press('Enter');
      // In flight, its answer is not lost yet: the page says so, not that it was lost.
      await page.getByRole('status').filter({ hasText: /Sending the refund of/ }).waitFor();
      assert.equal(await page.getByText(/answer was lost/).count(), 0, 'a refund in flight is shown as lost');
      release();
      await page.getByText(/answer was lost/).waitFor();
      assert.equal(payouts(), before + 1, 'the first call paid out');
      assert.equal(describeViolations(await axeViolations(page)), '');
      // A reload keeps it (this tab's session storage): the operator cannot lose the reference.
      await page.reload();
      await page.getByRole('button', { name: 'Try the same refund again' }).press('Enter');
      await page.getByRole('status').filter({ hasText: /Refund recorded: (pending|completed)/ }).waitFor();
      assert.equal(payouts(), before + 1, 'the retry paid nothing more');
      assert.equal(await page.getByText(/answer was lost/).count(), 0);
    } finally {
      await page.unroute('**/console/api/payments/*/refunds');
    }
  });

  it('refuses a POST without the CSRF token, and runs it with the token', async () => {
    const url = `${harness.base}/console/api/payments/${encodeURIComponent(paidOrder)}/redeliver`;
    const statuses = await page.evaluate(async ({ url, header }) => {
      const without = await fetch(url, { method: 'POST' });
      const session = (await (await fetch(url.replace(/\/api\/.*$/, '/api/session'))).json()) as { csrfToken: string };
      const withToken = await fetch(url, { method: 'POST', headers: { [header]: session.csrfToken } });
      return [without.status, withToken.status];
    }, { url, header: csrfHeader });
    assert.deepEqual(statuses, [403, 200]);
  });

  it('is usable at 320 px: nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 320, height: 800 });
    for (const hash of ['#/', '#/payments', `#/payments/${encodeURIComponent(paidOrder)}`, '#/endpoint']) {
      await page.evaluate((target) => (location.hash = target), hash);
      await page.waitForTimeout(300);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `${hash} is ${width} px wide at 320 px`);
    }
    await page.evaluate(() => (location.hash = '#/payments'));
    // The unfiltered list: both orders, the stuck one (changed last) first.
    await page.getByRole('row').filter({ hasText: paidOrder }).waitFor();
    const rows = await page.getByRole('row').allInnerTexts();
    assert.ok(rows.findIndex((row) => row.includes(stuckOrder)) < rows.findIndex((row) => row.includes(paidOrder)), rows.join('\n'));
    await page.screenshot({ path: join(screenshotDir, 'console-payments-320.png'), fullPage: true });
  });

  it('at 320 px the operator table shows every column and the chart\'s hour labels are no larger than the page text (issue 32)', async () => {
    await page.setViewportSize({ width: 320, height: 800 });
    await page.evaluate(() => (location.hash = '#/'));
    const table = page.locator('momo-console-overview table.operators');
    await table.waitFor();
    const fit = await table.evaluate((element) => {
      const box = element.closest('.scroll')!;
      const usual = [...element.querySelectorAll('thead th')].at(-1)!;
      return { table: element.scrollWidth, box: box.clientWidth, usualRight: usual.getBoundingClientRect().right, boxRight: box.getBoundingClientRect().right, usual: usual.textContent };
    });
    assert.equal(fit.usual, 'Usual (last week)');
    assert.ok(fit.table <= fit.box, `the table is ${fit.table} px wide in a ${fit.box} px box: its last column is cut off`);
    assert.ok(fit.usualRight <= fit.boxRight + 0.5, `"Usual (last week)" ends at ${fit.usualRight} px, past its box (${fit.boxRight} px)`);
    const sizes = await page.locator('momo-console-overview #per-hour-summary').evaluate((summary) => {
      const tick = summary.closest('figure')!.querySelector('.tick')!;
      return { tick: parseFloat(getComputedStyle(tick).fontSize), text: parseFloat(getComputedStyle(summary).fontSize), visible: tick.getBoundingClientRect().height > 0 };
    });
    assert.ok(sizes.visible, 'the hour labels are shown');
    assert.ok(sizes.tick <= sizes.text && sizes.tick >= 12, `hour labels at ${sizes.tick} px beside ${sizes.text} px text`);
    for (const width of [1100]) {
      await page.setViewportSize({ width, height: 900 });
      const tick = await page.locator('momo-console-overview .tick').first().evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
      assert.ok(tick <= sizes.text, `hour labels at ${tick} px at ${width} px wide`);
    }
    await page.setViewportSize({ width: 320, height: 800 });
    await page.screenshot({ path: join(screenshotDir, 'console-overview-320.png'), fullPage: true });
  });

  it('an order whose checkout exists but is not paid: "checkout created at …, not paid yet, expires at …"', async () => {
    await page.evaluate((orderId) => (location.hash = `#/payments?orderId=${orderId}`), unpaidOrder);
    const said = page.locator('momo-console-payments p.unpaid');
    await said.waitFor();
    const text = await said.innerText();
    assert.match(text, new RegExp(`^Order ${unpaidOrder} \\(F\\s?CFA\\s2,500\\): checkout created at .+, not paid yet, expires at .+\\.$`));
    assert.doesNotMatch(await page.locator('momo-console-payments').innerText(), /No payment matches/);
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('shows the endpoint\'s last deliveries and sends a test notification', async () => {
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.getByRole('link', { name: 'Endpoint health' }).press('Enter');
    await page.getByRole('cell', { name: /HTTP 500/ }).first().waitFor();
    await page.getByRole('button', { name: 'Send test notification' }).press('Enter');
    await page.getByRole('status').filter({ hasText: 'The endpoint answered: HTTP 204' }).waitFor();
    assert.ok(receiver.received.some((item) => item.id.startsWith('test.ping.')));
    assert.equal(describeViolations(await axeViolations(page)), '');
  });

  it('speaks French', async () => {
    await page.getByRole('link', { name: 'Français' }).press('Enter');
    await page.getByRole('heading', { name: 'Santé du point de réception' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  });

  it('signs out: back at the sign-in form, and a kept copy of the cookie opens nothing', async () => {
    const context = page.context();
    const [kept] = (await context.cookies()).filter((cookie) => cookie.name === 'momo_console');
    assert.ok(kept, 'signed in with a momo_console cookie');
    await page.getByRole('button', { name: 'Se déconnecter' }).press('Enter');
    await page.getByLabel(/Secret ou mot de passe|Secret or password/).waitFor();
    assert.deepEqual((await context.cookies()).filter((cookie) => cookie.name === 'momo_console'), [], 'the browser dropped its cookie');
    // Someone who copied the cookie before sign-out: the companion has ended the session itself.
    await context.addCookies([kept]);
    const statuses = await page.evaluate(async (base) => [(await fetch(`${base}/api/session`)).status, (await fetch(`${base}/api/payments`)).status], `${harness.base}/console`);
    assert.deepEqual(statuses, [401, 401]);
    await page.goto(`${harness.base}/console`);
    await page.getByLabel(/Secret ou mot de passe|Secret or password/).waitFor();
  });
});
