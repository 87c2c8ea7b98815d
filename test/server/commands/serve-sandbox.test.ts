/**
 * `momo-checkout serve --sandbox`: with no service variable at all it serves, answers /healthz, and
 * the approval-page (wallet) flow runs on the companion's own origin, as a page of a shop in any
 * language meets it: the approval page, then the return route, then the verified notification.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStandaloneWithSandbox, type StandaloneWithSandbox } from '../../../src/server/commands/serve-sandbox.js';
import { silentLogger } from '../../../src/server/log.js';

const shop = 'http://127.0.0.1:8000';

describe('momo-checkout serve --sandbox', () => {
  let service: StandaloneWithSandbox;
  before(async () => {
    service = await startStandaloneWithSandbox({ env: { PORT: '0', MOMO_ALLOWED_ORIGINS: shop, MOMO_RETURN_URL: `${shop}/thanks` }, log: silentLogger, sandboxLog: () => {} });
  });
  after(async () => service.close());

  const page = async (path: string, token: string, body: unknown) => {
    const response = await fetch(`${service.shopEnv.MOMO_PUBLIC_URL}${path}`, {
      method: 'POST',
      headers: { origin: shop, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('answers /healthz with no MOMO_BASE_URL, key or server secret given, and prints what the shop needs', async () => {
    assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
    assert.match(service.shopEnv.MOMO_SERVER_SECRET, /^.{32,}$/);
    const banner = service.banner.join('\n');
    assert.match(banner, /MOMO_SERVER_SECRET=/);
    assert.match(banner, /\+2290196000001 +BJ +mtn +push on the phone +paid/);
    assert.match(banner, /\+2290194000002 +BJ +moov +payment code \(123456\) +declined/);
    assert.doesNotMatch(banner, /provider_auth|pre_authorized/, 'the payer\'s words, not the service\'s workflow names');
  });

  it('runs the approval-page flow on the companion\'s origin, from a checkout made through the server API', async () => {
    const created = await fetch(`${service.shopEnv.MOMO_PUBLIC_URL}/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.shopEnv.MOMO_SERVER_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: `order-${Date.now()}`, amount: '5000', currencyCode: 'XOF' }),
    });
    assert.equal(created.status, 200);
    const { token, orderId } = (await created.json()) as { token: string; orderId: string };
    const paid = await page('/checkout/pay', token, { phoneNumber: '+2290196000001', useWallet: true });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));

    let authorizationUrl: string | null = null;
    for (let tries = 0; tries < 200 && !authorizationUrl; tries++) {
      const view = (await (await fetch(`${service.shopEnv.MOMO_PUBLIC_URL}/checkout`, { headers: { origin: shop, authorization: `Bearer ${token}` } })).json()) as any;
      authorizationUrl = view.payment?.authorizationUrl ?? null;
      if (!authorizationUrl) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(authorizationUrl, 'the approval page arrived');
    assert.equal(new URL(authorizationUrl).origin, new URL(service.url).origin, "the approval page is on the companion's origin, which the element opens over http");

    const approval = await fetch(authorizationUrl);
    assert.match(await approval.text(), /Approve this payment/);
    const decided = await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    assert.equal(decided.status, 303);
    const read = async () =>
      (await (await fetch(`${service.shopEnv.MOMO_PUBLIC_URL}/server/payments/${orderId}`, { headers: { authorization: `Bearer ${service.shopEnv.MOMO_SERVER_SECRET}` } })).json()) as any;
    let state = '';
    for (let tries = 0; tries < 200 && state !== 'completed'; tries++) {
      state = (await read()).payment.state;
      if (state !== 'completed') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(state, 'completed');
  });

  it('refuses to run against a real service\'s variables', async () => {
    await assert.rejects(startStandaloneWithSandbox({ env: { PORT: '0', MOMO_BASE_URL: 'https://api.example' }, log: silentLogger }), /unset MOMO_BASE_URL/);
  });
});
