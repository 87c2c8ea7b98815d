/**
 * Issue 4 §3 e2e: the flows that leave the page. The payer chooses the overlay wallet, the element
 * navigates (same tab) to the sandbox's authorisation page, the payer clicks Approve or Decline,
 * comes back to the shop, sees "confirming" until the webhook decides, then the outcome.
 * Issue 23: on a phone the element navigates at once; at a desktop it first offers the page to the
 * phone as a QR code, and the payer here takes "continue on this device instead".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readQrCodeOnScreen } from '../support/qr-read.js';
import { assertCallBounds, assertCleanPage, callsOf, enterNumber, openCheckout, phone, screenshot, startE2e, type E2eEnv, type Watched } from './harness.js';

// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts): Benin has the overlay wallet beside MTN;
// the Ivorian Moov number is the one documented as also holding a wallet account.
const beninMtn = '+2290196000001';
const ivorianMoovWithWallet = '+2250100000001';

async function payThroughWalletPage(env: E2eEnv, watched: Watched, phoneNumber: string, decision: 'Approve' | 'Decline'): Promise<void> {
  const { page } = watched;
  await enterNumber(page, phoneNumber);
  await page.getByRole('radio', { name: 'Pay with Wallet' }).check();
  await page.getByRole('button', { name: /^Pay / }).click();
  const viewport = page.viewportSize();
  if (viewport && viewport.width >= 1024) {
    // A desktop: the approval page as a QR code for the phone, and the link to stay on this device.
    const qrCode = page.getByRole('img', { name: /^QR code of the approval page on / });
    await qrCode.waitFor();
    const link = page.getByRole('link', { name: 'Continue on this device instead' });
    // What a phone's camera reads off the screen is the page the link opens here.
    assert.equal(await readQrCodeOnScreen(() => qrCode.screenshot()), await link.getAttribute('href'));
    await link.click();
  }
  // Same-tab navigation to the authorisation page, on the sandbox (served on the demo's origin).
  await page.waitForURL((url) => url.pathname.startsWith('/authorize/'));
  await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
  // The outcome's webhook waits until the payer has seen "confirming" (a real one may take seconds).
  env.webhooks.arm();
  try {
    await page.getByRole('button', { name: decision }).click();
    // Back on the shop's page for the same order, from the companion's return route.
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('order'));
    await page.getByText('Confirming your payment…').first().waitFor();
  } finally {
    env.webhooks.release();
  }
}

describe('e2e: authorisation page flows (redirect, overlay wallet)', () => {
  let env: E2eEnv;
  before(async () => {
    env = await startE2e();
  });
  after(async () => {
    await env?.close();
  });

  it('redirect approved at a desktop: QR code, "continue on this device", authorisation page, back to the shop, "confirming", then "payment received"', async () => {
    const watched = await openCheckout(env);
    const orderId = (await watched.page.locator('.order-ref code').textContent())?.trim();
    await payThroughWalletPage(env, watched, beninMtn, 'Approve');
    await watched.page.getByRole('heading', { name: 'Payment received' }).waitFor();
    assert.ok(watched.states.indexOf('confirming') < watched.states.lastIndexOf('succeeded'), `states: ${watched.states.join(' > ')}`);
    assert.equal((await watched.page.locator('.order-ref code').textContent())?.trim(), orderId, 'the payer is back on the same order');
    await screenshot(watched, 'redirect-approved');
    assertCleanPage(watched);
    assertCallBounds('redirect approved', callsOf(env, watched), { attempts: 1 });
    await watched.context.close();
  });

  it('redirect declined on a phone: the page opens at once; back to the shop, "confirming", then "payment not completed" with a way to try again', async () => {
    const watched = await openCheckout(env, '', phone);
    await payThroughWalletPage(env, watched, beninMtn, 'Decline');
    await watched.page.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    await watched.page.getByRole('button', { name: 'Try another number or operator' }).waitFor();
    await screenshot(watched, 'redirect-declined');
    assertCleanPage(watched);
    assertCallBounds('redirect declined', callsOf(env, watched), { attempts: 1 });
    await watched.context.close();
  });

  it('overlay wallet: offered as a second choice, and operatorCode "wallet" is sent only once chosen', async () => {
    const watched = await openCheckout(env);
    const { page } = watched;
    await enterNumber(page, ivorianMoovWithWallet);
    const operatorChoice = page.getByRole('radio', { name: 'Pay with Moov Money' });
    await operatorChoice.waitFor();
    assert.equal(await operatorChoice.isChecked(), true, "the number's own operator is the default choice");
    await payThroughWalletPage(env, watched, ivorianMoovWithWallet, 'Approve');
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    await screenshot(watched, 'wallet-approved');
    assertCleanPage(watched);

    const calls = env.demo.upstreamCalls.slice(watched.callMark);
    const payIns = calls.filter((call) => call.path === '/v1/pay-in');
    assert.ok(payIns.length > 0 && payIns.every((call) => call.operatorCode === 'wallet'), 'every pay-in of the wallet choice carries operatorCode "wallet"');
    const operatorPreviews = calls.filter((call) => call.path === '/v1/pay-in/preview' && call.operatorCode !== 'wallet');
    assert.ok(operatorPreviews.every((call) => call.operatorCode === null), 'the operator choice sends no operatorCode (§2.3)');
    const summary = callsOf(env, watched);
    assert.equal(summary.payIns422, 1, 'one REDIRECT_URLS_REQUIRED, then the re-post with the return URLs');
    assertCallBounds('overlay wallet', summary, { attempts: 1 });
    await watched.context.close();
  });
});
