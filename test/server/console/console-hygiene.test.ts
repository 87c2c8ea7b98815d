/**
 * What the console shows and keeps (issue 30, finding 5): a signed-out session's cookie stays
 * refused after a restart on the memory store, a token in the merchant endpoint's query is never
 * shown, and bidirectional controls in stored text are shown, not obeyed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainText } from '../../../src/console/format.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { redactedUrl } from '../../../src/server/model/urls.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'console-hygiene-server-secret-0123456789abcdef';
const merchantSecret = `whsec_${Buffer.from('console-hygiene-merchant-key-32b!').toString('base64')}`;

const through = (harness: Harness, path: string, init: RequestInit = {}) =>
  harness.companion.fetch(new Request(`${harness.base}/console${path}`, { redirect: 'manual', ...init }), { clientAddress: '45.33.70.1' });

async function signIn(harness: Harness): Promise<string> {
  const response = await through(harness, '/sign-in', {
    method: 'POST',
    headers: { origin: new URL(harness.base).origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret: serverSecret }).toString(),
  });
  assert.equal(response.status, 303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('console hygiene', () => {
  it('on the memory store, ends every session at a restart (a signed-out one could not be remembered)', async () => {
    const before = await startHarness({ serverSecret, store: createMemoryStore() });
    const cookie = await signIn(before);
    assert.equal((await through(before, '/api/session', { headers: { cookie } })).status, 200);
    await before.close();
    const restarted = await startHarness({ serverSecret, store: createMemoryStore() });
    try {
      assert.equal((await through(restarted, '/api/session', { headers: { cookie } })).status, 401);
    } finally {
      await restarted.close();
    }
  });

  it('shows the merchant endpoint without the values of its query', async () => {
    const harness = await startHarness({ serverSecret, merchantWebhookUrl: 'http://127.0.0.1:9/momo-events?token=s3cr3t-t0ken&shop=7', merchantWebhookSecret: merchantSecret });
    try {
      const cookie = await signIn(harness);
      const body = await (await through(harness, '/api/endpoint', { headers: { cookie } })).text();
      assert.doesNotMatch(body, /s3cr3t-t0ken/);
      assert.match(body, /momo-events\?token=…&shop=…/);
    } finally {
      await harness.close();
    }
  });

  it('redacts a URL\'s query values and fragment, keeping what a merchant recognises', () => {
    assert.equal(redactedUrl('https://shop.example/hook?key=abc#frag'), 'https://shop.example/hook?key=…#…');
    assert.equal(redactedUrl('https://shop.example/hook'), 'https://shop.example/hook');
    assert.equal(redactedUrl('not a url'), '…');
  });

  it('shows bidirectional controls as code points instead of obeying them', () => {
    assert.equal(plainText('order-\u202Eabc'), 'order-[U+202E]abc');
    assert.equal(plainText('\u2066x\u2069\u200F'), '[U+2066]x[U+2069][U+200F]');
    assert.equal(plainText('plain – text, فرنك'), 'plain – text, فرنك', 'letters of any script stay');
  });
});
