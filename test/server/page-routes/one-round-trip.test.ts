/**
 * Issue 10 and 13 on the companion's page routes: the number's lookup brings the default choice's
 * preview along (one round trip from a number to "Pay"), still one upstream preview per number and
 * choice; and a failed country discovery is "try again", never an empty list of countries (which
 * the page reads as "this order cannot be paid").
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordingFetch, type UpstreamCall } from '../../../demo/upstream-calls.js';
import { startHarness, type Harness } from '../harness.js';

const push = '+2290196000001';
const otp = '+2290194000001';

let h: Harness;
const calls: UpstreamCall[] = [];
before(async () => {
  h = await startHarness({ fetch: recordingFetch((request) => fetch(request), calls) });
});
after(async () => h.close());

const previews = (phoneNumber: string) => calls.filter((c) => c.path === '/v1/pay-in/preview' && c.phoneNumber === phoneNumber);

describe('lookup with the preview of the default choice', () => {
  it('answers the operators and the workflow together, and the page\'s own preview then costs no upstream call', async () => {
    const token = await h.checkout();
    const { status, body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: push } });
    assert.equal(status, 200);
    assert.equal(body.operator.code, 'mtn');
    assert.deepEqual(body.preview, { useWallet: false, workflow: 'provider_auth' });
    assert.equal(previews(push).length, 1);
    const again = await h.json('/checkout/preview', { token, body: { phoneNumber: push, useWallet: false } });
    assert.equal(again.body.workflow, 'provider_auth');
    await h.json('/checkout/lookup', { token, body: { phoneNumber: push } });
    assert.equal(previews(push).length, 1, 'one upstream preview per number and choice');
  });

  it('previews the other choice only when the payer takes it', async () => {
    const token = await h.checkout();
    const { body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: otp } });
    assert.deepEqual(body.preview, { useWallet: false, workflow: 'pre_authorized' });
    assert.equal(body.wallet.code, 'wallet');
    assert.deepEqual(previews(otp).map((c) => c.operatorCode), [null]);
    const wallet = await h.json('/checkout/preview', { token, body: { phoneNumber: otp, useWallet: true } });
    assert.equal(wallet.body.workflow, 'redirect_url');
    assert.deepEqual(previews(otp).map((c) => c.operatorCode), [null, 'wallet']);
  });

  it('leaves the preview out when it fails, so the page asks for it and shows why', async () => {
    const token = await h.checkout();
    h.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-in/preview', times: 2 });
    const { status, body } = await h.json('/checkout/lookup', { token, body: { phoneNumber: '+2290196000002' } });
    assert.equal(status, 200);
    assert.equal(body.operator.code, 'mtn');
    assert.equal('preview' in body, false);
  });
});

describe('the checkout view when the countries cannot be listed', () => {
  it('is SERVICE_UNAVAILABLE (try again), not an empty list', async () => {
    // Countries are cached for 1 ms here: createCheckout reads them too (to refuse unserved currencies).
    const fresh = await startHarness({ discoveryCacheTtlMs: 1 });
    try {
      const token = await fresh.checkout();
      await new Promise((resolve) => setTimeout(resolve, 5));
      fresh.sandbox.control.injectFault({ kind: 'status-500', path: '/v1/countries', times: 3 });
      const failed = await fresh.json('/checkout', { token });
      assert.equal(failed.status, 503);
      assert.equal(failed.body.error.code, 'SERVICE_UNAVAILABLE');
      const ok = await fresh.json('/checkout', { token });
      assert.equal(ok.status, 200);
      assert.ok(ok.body.countries.length > 0);
    } finally {
      await fresh.close();
    }
  });
});
