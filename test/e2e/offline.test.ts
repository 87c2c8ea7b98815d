/**
 * Issue 10, "offline or flaky network": the network cut in Chromium (Playwright's
 * `context.setOffline`, which also makes `navigator.onLine` false and fires `offline`/`online`)
 * around a payment. A request that fails says so with a way to retry; coming back online the
 * element tries again or re-reads the payment by itself; and never is a second pay-in started.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enterNumber, openCheckout, screenshot, startE2e, type E2eEnv, type Watched } from './harness.js';

// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts).
const pushApproves = '+2290196000001';
const pushNoAnswer = '+2290196000003';

const payIns = (env: E2eEnv, watched: Watched) => env.demo.upstreamCalls.slice(watched.callMark).filter((call) => call.path === '/v1/pay-in');

/** No CSP violation, no exception; console errors only for the requests the cut network failed. */
function assertNothingBroke(watched: Watched): void {
  assert.deepEqual(watched.cspViolations, []);
  assert.deepEqual(watched.pageErrors, []);
  assert.deepEqual(watched.consoleErrors.filter((line) => !/net::ERR_(INTERNET_DISCONNECTED|FAILED)/.test(line)), []);
}

describe('e2e: offline and flaky network', () => {
  let env: E2eEnv;
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('cut before Pay: "cannot reach" and "you are offline", no pay-in; back online it recovers by itself, one pay-in', async () => {
    const watched = await openCheckout(env);
    const { page, context } = watched;
    await enterNumber(page, pushApproves);
    const pay = page.getByRole('button', { name: /^Pay / });
    await pay.waitFor();
    await context.setOffline(true);
    await pay.click();
    await page.locator('momo-checkout [part="error"]').getByText('We cannot reach the payment service').waitFor();
    await page.getByText('You are offline', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await screenshot(watched, 'offline-before-pay');
    assert.equal(payIns(env, watched).length, 0, 'nothing reached the service');

    await context.setOffline(false);
    // No click: the element tries again when the browser is back online; the number is still there.
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    assert.equal(payIns(env, watched).length, 1);
    assertNothingBroke(watched);
    await context.close();
  });

  it('cut while waiting for approval: back online the element re-reads the payment and shows the outcome', async () => {
    const watched = await openCheckout(env);
    const { page, context } = watched;
    const orderId = (await page.locator('.order-ref code').textContent())?.trim() ?? '';
    await enterNumber(page, pushNoAnswer);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor();

    await context.setOffline(true);
    // The payer approves on the handset meanwhile: the webhook reaches the shop, not this page.
    await env.demo.sandbox!.control.settle(orderId, 'completed');
    await page.waitForTimeout(1500);
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await screenshot(watched, 'offline-while-waiting');
    assert.equal(payIns(env, watched).length, 1);
    assertNothingBroke(watched);
    await context.close();
  });

  it('the pay answer lost on the way back: "try again" shows the payment under way, and starts no second pay-in', async () => {
    const watched = await openCheckout(env);
    const { page, context } = watched;
    // The status stream is down from the start (else it would tell the page first, which is fine
    // but not this test): blocked, then the page loaded again (a new order).
    await page.route('**/momo/checkout/events', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await enterNumber(page, pushApproves);
    const pay = page.getByRole('button', { name: /^Pay / });
    await pay.waitFor();
    env.webhooks.arm(); // hold the outcome, to see the step the retry lands on
    // The request reaches the shop (route.fetch sends it), then the answer is lost.
    await page.route('**/momo/checkout/pay', async (route) => {
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await pay.click();
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    await page.locator('momo-checkout [part="error"]').getByText('We cannot reach the payment service').waitFor();
    assert.equal(payIns(env, watched).length, 1, 'the pay-in was made before the answer was lost');

    await page.unrouteAll();
    await retry.click();
    await page.getByRole('heading', { name: 'Approve the payment on your phone' }).waitFor();
    await screenshot(watched, 'pay-answer-lost');
    env.webhooks.release();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    assert.equal(payIns(env, watched).length, 1, 'no second pay-in');
    assertNothingBroke(watched);
    await context.close();
  });
});
