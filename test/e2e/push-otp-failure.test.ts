/**
 * Issue 4 §3 e2e: a payer in Chromium on the demo store against the sandbox, for the flows that
 * stay on the page: push approval, OTP (wrong code, then the right one), a declined number
 * followed by another attempt, and expiry when no answer comes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_OTP } from '../../src/sandbox/index.js';
import { assertCallBounds, assertCleanPage, callsOf, enterNumber, openCheckout, screenshot, startE2e, type E2eEnv } from './harness.js';

// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts).
const pushApproves = '+2290196000001';
const pushDeclines = '+2290196000002';
const pushNoAnswer = '+2290196000003';
const otpApproves = '+2290194000001';

describe('e2e: flows on the page (push, OTP, failure, expiry)', () => {
  let env: E2eEnv;
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('push: the payer sees "approve on your phone" with a countdown, then "payment received"', async () => {
    const watched = await openCheckout(env);
    const { page } = watched;
    await enterNumber(page, pushApproves);
    await page.getByText('MTN MoMo').first().waitFor();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor();
    await page.getByText(/Time left: /).waitFor();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await page.locator('.paid-banner').waitFor({ state: 'visible' });
    await screenshot(watched, 'push-approved');
    assert.ok(watched.states.indexOf('awaiting-approval') < watched.states.indexOf('succeeded'), `states: ${watched.states.join(' > ')}`);
    assertCleanPage(watched);
    assertCallBounds('push approved', callsOf(env, watched), { attempts: 1 });
    await watched.context.close();
  });

  it('OTP: the USSD code is a tap-to-dial link; a wrong code is refused, the right one pays', async () => {
    const watched = await openCheckout(env);
    const { page } = watched;
    await enterNumber(page, otpApproves);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Enter your payment code' }).waitFor();
    const dial = page.getByRole('link', { name: 'Dial *145*4#' });
    assert.equal(await dial.getAttribute('href'), 'tel:*145*4%23', '# is encoded as %23 in the tel: link');

    await page.getByLabel('Payment code').fill('000000');
    await page.getByLabel('Payment code').press('Enter');
    await page.getByText('This code was not accepted', { exact: false }).waitFor();

    await page.getByLabel('Payment code').fill(SANDBOX_OTP);
    await page.getByLabel('Payment code').press('Enter');
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await screenshot(watched, 'otp-approved');
    assertCleanPage(watched, ['400 POST /momo/checkout/pay']);
    assertCallBounds('OTP wrong then right', callsOf(env, watched), { attempts: 1, otpRetries: 1 });
    await watched.context.close();
  });

  it('failure: a declined number shows "not completed" and another number can pay the same order', async () => {
    const watched = await openCheckout(env);
    const { page } = watched;
    await enterNumber(page, pushDeclines);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    await screenshot(watched, 'declined');

    await page.getByRole('button', { name: 'Try another number or operator' }).click();
    await enterNumber(page, pushApproves);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await screenshot(watched, 'declined-then-approved');
    assertCleanPage(watched);
    const calls = callsOf(env, watched);
    assertCallBounds('declined, then another number', calls, { attempts: 2 });
    const orderIds = env.demo.upstreamCalls.slice(watched.callMark).filter((call) => call.path === '/v1/pay-in').map((call) => call.orderId);
    assert.equal(new Set(orderIds).size, 2, 'the second attempt is a new pay-in of its own (the first one failed)');
    await watched.context.close();
  });

  it('expiry: with no answer, "we haven\'t heard back" and the order reference to keep', async () => {
    const watched = await openCheckout(env, '?expiry=2');
    const { page } = watched;
    const orderId = (await page.locator('.order-ref code').textContent())?.trim() ?? '';
    await enterNumber(page, pushNoAnswer);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor();
    await page.getByRole('heading', { name: 'We haven’t heard back' }).waitFor({ timeout: 10_000 });
    await page.getByText(`Keep this reference: ${orderId}`).waitFor();
    await screenshot(watched, 'expired');
    assert.equal(env.demo.sandbox?.control.transaction(orderId)?.status, 'pending', 'the payment itself is still pending at the service');
    assertCleanPage(watched);
    assertCallBounds('no answer (expiry)', callsOf(env, watched), { attempts: 1 });
    await watched.context.close();
  });
});
