/**
 * The console's doors, called through the companion's handler: nothing without a session, a wrong
 * secret and a foreign or missing Origin refused, sign-in attempts limited, the cookie's attributes,
 * every POST refused without the session's CSRF token, and the secret never in what the page gets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csrfHeader } from '../../../src/contract/console.js';
import { createConsoleSessions, type EndedSessions } from '../../../src/server/console/console-session.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'console-test-server-secret-0123456789abcdef';
const consolePassword = 'console-password-0123';

describe('console routes', () => {
  let harness: Harness;
  let origin: string;
  // Each request from an address of its own: the sign-in limit is tested apart.
  let addresses = 0;
  const open = (path: string, init: RequestInit = {}) =>
    harness.companion.fetch(new Request(`${harness.base}/console${path}`, { redirect: 'manual', ...init }), { clientAddress: `45.33.${++addresses % 250}.1` });
  const signIn = (secret: string, headers: Record<string, string> = { origin }) =>
    open('/sign-in', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ secret }).toString() });
  const sessionCookie = async (secret = serverSecret) => {
    const response = await signIn(secret);
    assert.equal(response.status, 303);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };

  before(async () => {
    harness = await startHarness({ serverSecret, consolePassword });
    origin = new URL(harness.base).origin;
  });
  after(() => harness.close());

  it('shows only the sign-in form without a session, and refuses its data and script', async () => {
    const page = await open('');
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<form method="post"/);
    assert.doesNotMatch(html, /console\.js/, 'the script is not even named before sign-in');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/);
    assert.equal((await open('/api/payments')).status, 401);
    assert.equal((await open('/api/session')).status, 401);
    assert.equal((await open('/assets/console.js')).status, 401);
  });

  it('refuses a wrong secret, and a sign-in from another origin or none', async () => {
    const wrong = await signIn('not-the-secret-at-all');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.match(await wrong.text(), /not the right one/);
    assert.equal((await signIn(serverSecret, { origin: 'https://evil.example' })).status, 403);
    assert.equal((await signIn(serverSecret, {})).status, 403);
  });

  it('signs in with the server secret or the console password: an HttpOnly, SameSite=Strict cookie that expires, not Secure on loopback http', async () => {
    for (const secret of [serverSecret, consolePassword]) {
      const response = await signIn(secret);
      assert.equal(response.status, 303);
      const cookie = response.headers.get('set-cookie')!;
      assert.match(cookie, /^momo_console=[^;]+; Path=\/momo\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/);
    }
  });

  it('gives the page a CSRF token and never the secret', async () => {
    const cookie = await sessionCookie();
    const session = await open('/api/session', { headers: { cookie } });
    assert.equal(session.status, 200);
    const text = await session.text();
    assert.ok(!text.includes(serverSecret) && !text.includes(consolePassword));
    assert.match((JSON.parse(text) as { csrfToken: string }).csrfToken, /^[A-Za-z0-9_-]{43}$/);
    const shell = await (await open('', { headers: { cookie } })).text();
    assert.match(shell, /<momo-console base="\/momo\/console">/);
    assert.ok(!shell.includes(serverSecret));
  });

  it('refuses a POST without the CSRF token or with another session\'s', async () => {
    const cookie = await sessionCookie();
    const other = await sessionCookie();
    const otherToken = ((await (await open('/api/session', { headers: { cookie: other } })).json()) as { csrfToken: string }).csrfToken;
    const post = (headers: Record<string, string>) => open('/api/endpoint/test', { method: 'POST', headers: { cookie, origin, ...headers } });
    const missing = await post({});
    assert.equal(missing.status, 403);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'CSRF');
    assert.equal((await post({ [csrfHeader]: otherToken })).status, 403);
    const token = ((await (await open('/api/session', { headers: { cookie } })).json()) as { csrfToken: string }).csrfToken;
    // With its token the action runs: no merchant endpoint here, so it says so.
    assert.equal((await post({ [csrfHeader]: token })).status, 409);
  });

  it('refuses a forged cookie', async () => {
    const cookie = await sessionCookie();
    const [name, value] = cookie.split('=') as [string, string];
    const [id, , signature] = value.split('.');
    const forged = `${name}=${id}.${Date.now() + 3_600_000 * 100}.${signature}`;
    assert.equal((await open('/api/session', { headers: { cookie: forged } })).status, 401);
  });

  it('limits sign-in attempts per address', async () => {
    const limited = await startHarness({ serverSecret });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 7; attempt++) {
        const response = await limited.companion.fetch(
          new Request(`${limited.base}/console/sign-in`, {
            method: 'POST',
            headers: { origin: new URL(limited.base).origin, 'content-type': 'application/x-www-form-urlencoded' },
            body: 'secret=wrong-guess',
          }),
          { clientAddress: '45.33.251.9' },
        );
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('makes the cookie Secure when the companion is reached over https', async () => {
    const behindTls = await startHarness({ serverSecret, publicUrl: 'https://shop.example/momo' });
    try {
      const response = await behindTls.companion.fetch(
        new Request('https://shop.example/momo/console/sign-in', {
          method: 'POST',
          headers: { origin: 'https://shop.example', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: serverSecret }).toString(),
        }),
        { clientAddress: '45.33.252.1' },
      );
      assert.equal(response.status, 303);
      assert.match(response.headers.get('set-cookie') ?? '', /; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await behindTls.close();
    }
  });

  it('ends a session at sign-out for every process sharing the store: a kept copy of its cookie is refused', async () => {
    const store = createMemoryStore();
    const [first, second] = [await startHarness({ serverSecret, store }), await startHarness({ serverSecret, store })];
    try {
      const through = (companion: Harness, path: string, init: RequestInit = {}) =>
        companion.companion.fetch(new Request(`${first.base}/console${path}`, { redirect: 'manual', ...init }), { clientAddress: '45.33.253.1' });
      const firstOrigin = new URL(first.base).origin;
      const signInTo = async () => {
        const response = await through(first, '/sign-in', {
          method: 'POST',
          headers: { origin: firstOrigin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: serverSecret }).toString(),
        });
        return response.headers.get('set-cookie')!.split(';')[0]!;
      };
      const [signingOut, stayingIn] = [await signInTo(), await signInTo()];
      const csrfToken = ((await (await through(first, '/api/session', { headers: { cookie: signingOut } })).json()) as { csrfToken: string }).csrfToken;
      assert.equal((await through(second, '/api/session', { headers: { cookie: signingOut } })).status, 200, 'the other process accepts the session');

      const signOut = await through(first, '/sign-out', {
        method: 'POST',
        headers: { cookie: signingOut, origin: firstOrigin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: csrfToken }).toString(),
      });
      assert.equal(signOut.status, 303);
      assert.match(signOut.headers.get('set-cookie') ?? '', /^momo_console=; .*Max-Age=0/);
      for (const companion of [first, second]) {
        assert.equal((await through(companion, '/api/session', { headers: { cookie: signingOut } })).status, 401);
        assert.equal((await through(companion, '/api/payments', { headers: { cookie: signingOut } })).status, 401);
      }
      assert.equal((await through(second, '/api/session', { headers: { cookie: stayingIn } })).status, 200, 'another session stays signed in');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('does not exist without a server secret or a console password', async () => {
    const bare = await startHarness();
    try {
      assert.equal((await bare.companion.fetch(new Request(`${bare.base}/console`))).status, 404);
    } finally {
      await bare.close();
    }
  });
});

describe('console sessions', () => {
  it('end at their expiry', async () => {
    const clock = { at: 1_000_000 };
    const sessions = createConsoleSessions({ secrets: ['a-secret-of-enough-length'], ttlMs: 60_000, now: () => clock.at });
    const { cookie } = await sessions.issue();
    assert.ok(await sessions.verify(cookie));
    clock.at += 60_000;
    assert.equal(await sessions.verify(cookie), null);
  });

  it('end when the secret changes', async () => {
    const now = () => 0;
    const { cookie } = await createConsoleSessions({ secrets: ['the-old-secret-of-enough-length'], ttlMs: 60_000, now }).issue();
    assert.equal(await createConsoleSessions({ secrets: ['the-new-secret-of-enough-length'], ttlMs: 60_000, now }).verify(cookie), null);
  });

  it('end at sign-out, until their expiry, where the signed-out ones are kept', async () => {
    const clock = { at: 1_000_000 };
    const store = createMemoryStore({ now: () => clock.at });
    const options = { secrets: ['a-secret-of-enough-length'], ttlMs: 60_000, now: () => clock.at };
    const ended: EndedSessions = {
      endConsoleSession: (id, expiresAt) => store.endConsoleSession!(id, expiresAt),
      isConsoleSessionEnded: (id) => store.isConsoleSessionEnded!(id),
    };
    const [one, another] = [createConsoleSessions({ ...options, ended }), createConsoleSessions({ ...options, ended })];
    const { session, cookie } = await one.issue();
    await one.end(session);
    assert.equal(await one.verify(cookie), null);
    assert.equal(await another.verify(cookie), null, 'in every process sharing the store');
    assert.ok(await another.verify((await another.issue()).cookie), 'a new session is not ended');
    const unkept = createConsoleSessions(options);
    const elsewhere = await unkept.issue();
    await unkept.end(elsewhere.session);
    assert.ok(await unkept.verify(elsewhere.cookie), 'with no store to keep it, sign-out can only drop the browser\'s cookie');
  });
});
