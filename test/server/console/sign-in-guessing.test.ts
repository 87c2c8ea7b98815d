/**
 * Guessing cannot lock the operator out of the console (issue 30, finding 3): behind the
 * documented proxy each client's address is its own key, a client that reaches the port directly
 * cannot lift its limit with a new X-Forwarded-For, guessers with many addresses hold back the
 * password everywhere but never the server secret, and on the file store the limit holds across
 * the processes sharing the file. The server secret is recognised before any per-address bucket is
 * taken, so guesses from the operator's office or carrier NAT never lock it out (issue 40, finding 5).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createFileStore } from '../../../src/server/index.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'console-guessing-server-secret-0123456789abcdef';
const consolePassword = 'console-password-guess-0123';

function signIn(harness: Harness, secret: string, socket: string, forwardedFor?: string): Promise<Response> {
  return harness.companion.fetch(
    new Request(`${harness.base}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: new URL(harness.base).origin,
        'content-type': 'application/x-www-form-urlencoded',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: new URLSearchParams({ secret }).toString(),
    }),
    { clientAddress: socket },
  );
}

describe('console sign-in under guessing', () => {
  it('behind a trusted proxy, limits the guesser\'s address and lets the operator in from another', async () => {
    const harness = await startHarness({ serverSecret, consolePassword, trustProxy: ['127.0.0.1'] });
    try {
      const guesses = [];
      for (let attempt = 0; attempt < 7; attempt++) guesses.push((await signIn(harness, `guess-${attempt}`, '127.0.0.1', '203.0.113.66')).status);
      assert.deepEqual(guesses, [401, 401, 401, 401, 401, 429, 429]);
      assert.equal((await signIn(harness, consolePassword, '127.0.0.1', '198.51.100.20')).status, 303, 'the operator, from their own address');
      assert.equal((await signIn(harness, serverSecret, '127.0.0.1', '198.51.100.21')).status, 303);
    } finally {
      await harness.close();
    }
  });

  it('never refuses the server secret from an address a guesser shares (issue 40, finding 5), while wrong ones still count there', async () => {
    const harness = await startHarness({ serverSecret, consolePassword });
    try {
      const office = '45.33.70.1';
      const guesses = [];
      for (let attempt = 0; attempt < 6; attempt++) guesses.push((await signIn(harness, `guess-${attempt}`, office)).status);
      assert.deepEqual(guesses, [401, 401, 401, 401, 401, 429]);
      assert.equal((await signIn(harness, consolePassword, office)).status, 429, 'the password is held back at that address');
      assert.equal((await signIn(harness, `${serverSecret}x`, office)).status, 429, 'a wrong secret counts like any guess');
      assert.equal((await signIn(harness, serverSecret, office)).status, 303, 'the server secret gets through');
      assert.equal((await signIn(harness, serverSecret, office)).status, 303, 'and takes nothing from the bucket');
    } finally {
      await harness.close();
    }
  });

  it('never reads X-Forwarded-For from a client that reached the port directly', async () => {
    const harness = await startHarness({ serverSecret, trustProxy: 1 });
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 7; attempt++) statuses.push((await signIn(harness, 'guess', '45.33.77.1', `192.0.2.${attempt}`)).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429], 'a new forwarded address per request lifts nothing');
    } finally {
      await harness.close();
    }
  });

  it('holds back the password from everywhere after many guesses from many addresses, never the server secret', async () => {
    const harness = await startHarness({ serverSecret, consolePassword });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 35; attempt++) statuses.push((await signIn(harness, `guess-${attempt}`, `45.33.60.${attempt + 1}`)).status);
      assert.equal(statuses.filter((status) => status === 401).length, 30, 'the slower global bucket');
      assert.deepEqual(statuses.slice(30), [429, 429, 429, 429, 429]);
      const password = await signIn(harness, consolePassword, '45.33.61.30');
      assert.equal(password.status, 429);
      assert.match(await password.text(), /server secret \(MOMO_SERVER_SECRET\) still signs you in/);
      assert.equal((await signIn(harness, serverSecret, '45.33.61.31')).status, 303, 'the server secret always gets through');
    } finally {
      await harness.close();
    }
  });

  it('counts one limit for the processes sharing a file store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-sign-in-'));
    const [first, second] = [await startHarness({ serverSecret, store: createFileStore({ dataDir }) }), await startHarness({ serverSecret, store: createFileStore({ dataDir }) })];
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 6; attempt++) statuses.push((await signIn(attempt % 2 === 0 ? first : second, 'guess', '45.33.88.1')).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    } finally {
      await first.close();
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
