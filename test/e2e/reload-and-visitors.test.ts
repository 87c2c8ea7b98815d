/**
 * Issue 11 §3-§4 and issue 12 §11 in Chromium: a payer who reloads after paying sees the outcome
 * again, never a fresh checkout; another visitor given the order's address sees nothing of it; an
 * order whose amount the currency cannot carry tells the payer to contact the shop.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertCallBounds, assertCleanPage, callsOf, enterNumber, openCheckout, screenshot, startE2e, type E2eEnv } from './harness.js';

const pushApproves = '+2290196000001';
const drcVodacom = '+243810000001';

describe('e2e: the order page across reloads and visitors', () => {
  let env: E2eEnv;
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  // First in this file, on a fresh companion that has not asked the service anything yet: the
  // currency's ISO 4217 minor units are the first check (issue 20), so no payer ever meets the order.
  it('an amount with more decimals than the currency allows is refused when the shop creates the order', async () => {
    const watched = await openCheckout(env, '?amount=1.005&currency=USD');
    const { page } = watched;
    await page.getByRole('alert').filter({ hasText: 'more decimals than USD allows' }).waitFor();
    assert.equal(await page.getByLabel('Mobile money number').count(), 0, 'no number field for an order no payer could pay');
    await watched.context.close();
  });

  it('a reload after "Payment received" shows the outcome again, and offers no second payment', async () => {
    const watched = await openCheckout(env);
    const { page } = watched;
    const orderUrl = page.url();
    assert.match(new URL(orderUrl).search, /^\?order=/, 'the order has its own address');
    await enterNumber(page, pushApproves);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();

    await page.reload();
    assert.equal(page.url(), orderUrl, 'the same order');
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    assert.equal(await page.getByLabel('Mobile money number').count(), 0, 'no number field: nothing to pay again');
    assert.equal(await page.getByRole('button', { name: /^Pay / }).count(), 0);
    await page.locator('.paid-banner').waitFor({ state: 'visible' });
    await screenshot(watched, 'reload-after-paid');
    assertCleanPage(watched);
    assertCallBounds('paid, then reloaded', callsOf(env, watched), { attempts: 1 });

    // "Start a new order" stays the way to a new one.
    await page.getByRole('link', { name: 'Start a new order' }).click();
    await page.getByLabel('Mobile money number').waitFor();
    assert.notEqual(page.url(), orderUrl);
    await watched.context.close();
  });

  it("another visitor given the order's address gets a clear not-found page, without the checkout", async () => {
    const owner = await openCheckout(env);
    const orderUrl = owner.page.url();
    const stranger = await openCheckout(env);
    const { page } = stranger;
    const response = await page.goto(orderUrl);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { name: 'Order not found' }).waitFor();
    assert.equal(await page.locator('momo-checkout').count(), 0, 'no checkout, so no token');
    await page.getByRole('link', { name: 'Start a new order' }).click();
    await page.getByLabel('Mobile money number').waitFor();
    assertCleanPage(stranger, ['404 GET /']);
    await owner.context.close();
    await stranger.context.close();
  });
});
