/**
 * `momo-checkout serve --sandbox`: with no service variable at all it serves, answers /healthz, and
 * the approval-page (wallet) flow runs on the companion's own origin, as a page of a shop in any
 * language meets it: the approval page, then the return route, then the verified notification.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStandaloneWithSandbox, type StandaloneWithSandbox } from '../../../src/server/commands/serve-sandbox.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, silentLogger } from '../../../src/server/log.js';

const shop = 'http://127.0.0.1:8000';

describe('momo-checkout serve --sandbox', () => {
  let service: StandaloneWithSandbox;
  before(async () => {
    service = await startStandaloneWithSandbox({ env: { PORT: '0', MOMO_ALLOWED_ORIGINS: shop }, log: silentLogger, sandboxLog: () => {} });
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

/**
 * Issue 41: behind a TLS proxy (MOMO_PUBLIC_URL https, the server on loopback http), every link the
 * payer's browser follows starts with the public URL and is served under its path, a notification
 * the simulator could not deliver is in the companion's own log, and the banner says where the
 * payments are kept and never prints the merchant's own secret.
 */
describe('momo-checkout serve --sandbox behind a proxy (MOMO_PUBLIC_URL https)', () => {
  const publicUrl = 'https://shop.invalid/momo';
  const ownSecret = 'merchant-own-server-secret-0123456789abcdef';
  const lines: Array<Record<string, unknown>> = [];
  let service: StandaloneWithSandbox;
  before(async () => {
    service = await startStandaloneWithSandbox({
      env: { PORT: '0', MOMO_PUBLIC_URL: publicUrl, MOMO_ALLOWED_ORIGINS: shop, MOMO_SERVER_SECRET: ownSecret, MOMO_DATA_DIR: mkdtempSync(join(tmpdir(), 'momo-serve-sandbox-')) },
      log: createLogger({ sink: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
      sandboxLog: () => {},
    });
  });
  after(async () => service.close());

  const asPage = (path: string, token: string, body: unknown) =>
    fetch(`${service.url}/momo${path}`, { method: 'POST', headers: { origin: shop, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('gives operator logos under the public URL, and serves them under its path', async () => {
    const created = await fetch(`${service.url}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: `order-${Date.now()}`, amount: '5000', currencyCode: 'XOF' }),
    });
    const { token } = (await created.json()) as { token: string };
    const lookup = (await (await asPage('/checkout/lookup', token, { phoneNumber: '+2290196000001' })).json()) as { operator: { logoUrl: string } | null; wallet: { logoUrl: string } | null };
    const logos = [lookup.operator?.logoUrl, lookup.wallet?.logoUrl];
    assert.equal(logos.filter(Boolean).length, 2, JSON.stringify(lookup));
    for (const url of logos) assert.match(url!, /^https:\/\/shop\.invalid\/momo\/logos\/[a-z0-9-]+\.svg$/);
    const logo = await fetch(`${service.url}${new URL(logos[0]!).pathname}`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/svg+xml');
  });

  it('says in the companion log that a service notification was not delivered (the payer would wait forever)', async () => {
    const orderId = `order-${Date.now()}-lost`;
    const created = await fetch(`${service.url}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
    });
    const { token } = (await created.json()) as { token: string };
    assert.equal((await asPage('/checkout/pay', token, { phoneNumber: '+2290194000001', useWallet: false, otp: '123456' })).status, 200);
    const lost = (line: Record<string, unknown>) => line.level === 'error' && line.orderId === orderId && String(line.msg).includes('NOT delivered');
    for (let tries = 0; tries < 300 && !lines.some(lost); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines.find(lost);
    assert.ok(line, JSON.stringify(lines.slice(-5)));
    assert.match(String(line.url), /^https:\/\/shop\.invalid\/momo\/webhook/);
    assert.match(String(line.error), /could not reach the receiver/);
  });

  it('says the payments are kept in the store it was given, and never prints the merchant\'s own secret', () => {
    const banner = service.banner.join('\n');
    assert.doesNotMatch(banner, /forgotten at a stop/);
    assert.match(banner, /Payments are kept in the companion's store \(a SQLite file in /);
    assert.ok(!banner.includes(ownSecret), 'the secret is not in the banner');
    assert.match(banner, /MOMO_SERVER_SECRET=\(yours, ending \.\.\.cdef\)/);
  });
});
