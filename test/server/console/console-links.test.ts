/**
 * The console's payment-link routes (issue 44): behind the session and the CSRF token like every
 * console action, creating through the server API's own link actions (the same link comes back
 * from `GET /server/links/{linkId}`), listing newest first a page at a time, closing, and a bad
 * form answered with the rules' own sentence.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csrfHeader } from '../../../src/contract/console.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'console-links-test-server-secret-0123456789';

describe('console payment-link routes', () => {
  let harness: Harness;
  let origin: string;
  let cookie: string;
  let token: string;
  let addresses = 0;
  const open = (path: string, init: RequestInit = {}) =>
    harness.companion.fetch(new Request(`${harness.base}/console${path}`, { redirect: 'manual', ...init }), { clientAddress: `45.34.${++addresses % 250}.1` });
  const post = (path: string, body: unknown, headers: Record<string, string> = { [csrfHeader]: token }) =>
    open(path, { method: 'POST', headers: { origin, cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const read = async <T = any>(path: string) => {
    const response = await open(path, { headers: { cookie } });
    return { status: response.status, body: (await response.json()) as T };
  };

  before(async () => {
    harness = await startHarness({ serverSecret });
    origin = new URL(harness.base).origin;
    const signedIn = await open('/sign-in', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ secret: serverSecret }).toString() });
    assert.equal(signedIn.status, 303);
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    token = ((await (await open('/api/session', { headers: { cookie } })).json()) as { csrfToken: string }).csrfToken;
  });
  after(() => harness.close());

  it('needs a session to read or create, and the CSRF token to create or close', async () => {
    assert.equal((await open('/api/links')).status, 401);
    const anonymous = await open('/api/links', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ currencyCode: 'XOF', description: 'x', amount: '100' }) });
    assert.equal(anonymous.status, 401);
    const noToken = await post('/api/links', { currencyCode: 'XOF', description: 'Pagne', amount: '5000' }, {});
    assert.equal(noToken.status, 403);
    assert.equal(((await noToken.json()) as { error: { code: string } }).error.code, 'CSRF');
    assert.equal((await post('/api/links', { currencyCode: 'XOF', description: 'Pagne', amount: '5000' }, { [csrfHeader]: 'forged' })).status, 403);
    const list = await read<{ links: unknown[] }>('/api/links');
    assert.equal(list.status, 200);
    assert.equal(list.body.links.length, 0, 'nothing was created by the refused requests');
  });

  it('creates a link through the same actions as the server API, lists it newest first a page at a time, and closes it', async () => {
    assert.equal((await read('/api/links/currency')).body.currencyCode, null, 'no currency before the first link');
    const made: string[] = [];
    for (const description of ['First', 'Second', 'Third']) {
      const response = await post('/api/links', { currencyCode: 'XOF', description, amount: '5000' });
      assert.equal(response.status, 201);
      const link = (await response.json()) as { linkId: string; url: string; state: string; qr: { url: string; size: number; path: string } };
      assert.equal(link.url, `${harness.base}/l/${link.linkId}`);
      assert.equal(link.qr.url, link.url, 'the QR code encodes the address, drawn by the page from these modules');
      assert.ok(link.qr.size >= 21 && link.qr.path.startsWith('M'));
      assert.equal(link.state, 'open');
      made.push(link.linkId);
    }
    assert.equal((await read('/api/links/currency')).body.currencyCode, 'XOF');
    const viaServerApi = await harness.json(`/server/links/${made[0]}`, { token: serverSecret, origin: null });
    assert.equal(viaServerApi.status, 200);
    assert.equal(viaServerApi.body.description, 'First');

    const first = await read<{ links: { linkId: string }[]; next: string | null }>('/api/links?limit=2');
    assert.deepEqual(first.body.links.map((link) => link.linkId), [made[2], made[1]]);
    assert.ok(first.body.next);
    const second = await read<{ links: { linkId: string }[]; next: string | null }>(`/api/links?limit=2&before=${encodeURIComponent(first.body.next!)}`);
    assert.deepEqual(second.body.links.map((link) => link.linkId), [made[0]]);
    assert.equal(second.body.next, null);

    const detail = await read<{ state: string; payments: unknown[]; qr: { url: string } }>(`/api/links/${made[1]}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.qr.url, `${harness.base}/l/${made[1]}`);
    assert.deepEqual(detail.body.payments, []);
    assert.equal((await post(`/api/links/${made[1]}/close`, {}, { [csrfHeader]: '' })).status, 403, 'closing needs the token too');
    const closed = await post(`/api/links/${made[1]}/close`, {});
    assert.equal(closed.status, 200);
    assert.equal(((await closed.json()) as { state: string }).state, 'closed');
    assert.equal((await read<{ state: string }>(`/api/links/${made[1]}`)).body.state, 'closed');
    assert.equal((await fetch(`${harness.base}/l/${made[1]}`)).status, 410, "the closed link's page answers 410");
  });

  it('answers bad input with the sentence of the link rules, and an unknown link with a 404', async () => {
    const noAmount = await post('/api/links', { currencyCode: 'XOF', description: 'Pagne' });
    assert.equal(noAmount.status, 400);
    const refusal = ((await noAmount.json()) as { error: { code: string; message: string } }).error;
    assert.equal(refusal.code, 'BAD_REQUEST');
    assert.match(refusal.message, /amount/);
    const decimals = await post('/api/links', { currencyCode: 'XOF', description: 'Pagne', amount: '10.5' });
    assert.equal(decimals.status, 400);
    assert.match(((await decimals.json()) as { error: { message: string } }).error.message, /decimal/i);
    assert.equal((await post('/api/links', 'not an object')).status, 400);
    const unknown = await read<{ error: { code: string; message: string } }>('/api/links/no-such-link-here');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /No payment link/);
    assert.equal((await post('/api/links/no-such-link-here/close', {})).status, 404);
    assert.equal((await read('/api/links?limit=0')).status, 400);
    assert.equal((await read('/api/links?before=garbage')).status, 400);
  });
});
