/**
 * Payment links through the server API (issue 44): created with the same secret, body checks and
 * clear sentences as checkouts, idempotent on an Idempotency-Key, read with their payments, listed
 * newest first a page at a time, closed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../harness.js';

const secret = 'test-server-secret-links-0123456789abcdef0123';
let h: Harness;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false });
});
after(async () => h.close());

async function api<T = any>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; auth?: string | null } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== null) headers.authorization = `Bearer ${init.auth ?? secret}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const response = await fetch(`${h.base}/server${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body });
  return { status: response.status, body: (await response.json()) as T };
}

describe('server API: payment links', () => {
  it('creates a single-use link with a fixed amount: 201, an unguessable id and its page URL, a week to live', async () => {
    const before = Date.now();
    const { status, body } = await api('/links', { body: { currencyCode: 'XOF', description: 'Pagne wax, 6 yards', amount: '5000' } });
    assert.equal(status, 201, JSON.stringify(body));
    assert.match(body.linkId, /^[A-Za-z0-9][A-Za-z0-9_-]{22}$/, 'over 128 random bits (17 bytes), base64url, starting with a letter or a digit');
    assert.equal(body.url, `${h.base}/l/${body.linkId}`);
    assert.equal(body.state, 'open');
    assert.equal(body.reusable, false);
    assert.equal(body.amount, '5000');
    const life = Date.parse(body.expiresAt) - before;
    assert.ok(life >= 7 * 86_400_000 - 1_000 && life <= 7 * 86_400_000 + 60_000, `expires 7 days later by default, got ${body.expiresAt}`);
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await api('/links', { body: { currencyCode: 'XOF', description: 'x', amount: '100' } })).body.linkId);
    assert.equal(ids.size, 20, 'never the same id twice');
    for (const id of ids) assert.match(id, /^[A-Za-z0-9]/, 'no id starts with - or _ (an apostrophe in the export, a dash at the end of a URL)');
  });

  it('refuses bad input with a sentence that names the field and what to send', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ currencyCode: 'XOF', description: 'x', amount: '5000.5' }, /amount "5000.5" for XOF: This currency has no decimals: use a whole amount/],
      [{ currencyCode: 'XOF', description: 'x', amount: 5000 }, /Field "amount" in the JSON body: must be a decimal string/],
      [{ currencyCode: 'XOF', description: 'x' }, /Give amount \(a fixed price, e.g. "5000"\), or both minAmount and maxAmount/],
      [{ currencyCode: 'XOF', description: 'x', amount: '5000', minAmount: '1' , maxAmount: '9' }, /either amount .* not both/],
      [{ currencyCode: 'XOF', description: 'x', minAmount: '9000', maxAmount: '100' }, /minAmount 9000 is above maxAmount 100: swap them/],
      [{ currencyCode: 'XOF', description: '   ', amount: '5000' }, /description must say what the payer pays for, in 1 to 200 characters/],
      [{ currencyCode: 'xof', description: 'x', amount: '5000' }, /currencyCode must be an upper-case code/],
      [{ currencyCode: 'XOF', description: 'x', amount: '5000', maxPayments: 3 }, /maxPayments is for a reusable link/],
      [{ currencyCode: 'XOF', description: 'x', amount: '5000', expiresAt: '2020-01-01T00:00:00Z' }, /expiresAt 2020-01-01T00:00:00Z has already passed/],
      [{ currencyCode: 'XOF', description: 'x', amount: '5000', expiresAt: 'tomorrow' }, /expiresAt must be an ISO 8601 time/],
      [{ currencyCode: 'XOF', description: 'x', amount: '5000', returnUrl: 'javascript:alert(1)' }, /returnUrl "javascript:alert\(1\)" is not an absolute http\(s\) URL/],
    ];
    for (const [body, message] of cases) {
      const answer = await api('/links', { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.code, 'BAD_REQUEST');
      assert.match(answer.body.error.message, message);
    }
    const unauthorised = await api('/links', { body: { currencyCode: 'XOF', description: 'x', amount: '1' }, auth: 'wrong' });
    assert.equal(unauthorised.status, 401, 'the same secret as every server API route');
  });

  it('is idempotent on Idempotency-Key: the same link again (200), another body with the key a 409', async () => {
    const key = `key-${Date.now()}`;
    const order = { currencyCode: 'XOF', description: 'Sac en raphia', minAmount: '1000', maxAmount: '20000', reusable: true, maxPayments: 5 };
    const first = await api('/links', { body: order, headers: { 'idempotency-key': key } });
    assert.equal(first.status, 201);
    const again = await api('/links', { body: order, headers: { 'idempotency-key': key } });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body, 'the same link');
    const changed = await api('/links', { body: { ...order, maxAmount: '30000' }, headers: { 'idempotency-key': key } });
    assert.equal(changed.status, 409);
    assert.match(changed.body.error.message, /already created a link with other fields: use a new key/);
  });

  it('reads a link with its payments, lists links newest first a page at a time, and closes one', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await api('/links', { body: { currencyCode: 'XOF', description: `page ${i}`, amount: '2000' } })).body.linkId);
    const read = await api(`/links/${made[0]}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.payments, [], 'no payment yet');

    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page: { status: number; body: { links: Array<{ linkId: string }>; next: string | null } } = await api(`/links?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      assert.equal(page.status, 200);
      assert.ok(page.body.links.length <= 2);
      seen.push(...page.body.links.map((link) => link.linkId));
      before = page.body.next;
    } while (before);
    const ours = seen.filter((linkId) => made.includes(linkId));
    assert.deepEqual(ours, [...made].reverse(), 'the newest first, each once');
    assert.equal(new Set(seen).size, seen.length, 'none twice');

    const closed = await api(`/links/${made[1]}/close`, { method: 'POST' });
    assert.equal(closed.status, 200);
    assert.equal(closed.body.state, 'closed');
    assert.ok(closed.body.closedAt);
    assert.equal((await api(`/links/${made[1]}/close`, { method: 'POST' })).body.closedAt, closed.body.closedAt, 'closing twice is closing once');

    const missing = await api('/links/no-such-link');
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /No payment link "no-such-link"/);
    const badCursor = await api('/links?before=nonsense');
    assert.equal(badCursor.status, 400);
    assert.match(badCursor.body.error.message, /before must be the `next` value of the previous page/);
  });
});
