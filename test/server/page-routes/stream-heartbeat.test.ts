/** Status streams stay open through proxies with a shared heartbeat, and cost no timer each. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../harness.js';

let h: Harness;
before(async () => {
  h = await startHarness({ heartbeatMs: 20, setupChecksAtStart: false });
});
after(async () => h.close());

async function readUntil(response: Response, pattern: RegExp): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!pattern.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('status stream heartbeat', () => {
  it('sends ": ping" comments on an idle stream', async () => {
    const token = await h.checkout();
    const response = await h.call('/checkout/events', { token });
    assert.equal(response.status, 200);
    const text = await readUntil(response, /: ping\n\n/);
    assert.match(text, /: ping\n\n/);
  });

  it('forgets a stream whose reader went away', async () => {
    const tokens = await Promise.all([h.checkout(), h.checkout(), h.checkout()]);
    const responses = await Promise.all(tokens.map((token) => h.call('/checkout/events', { token })));
    await Promise.all(responses.map((response) => readUntil(response, /: ping/)));
    // The server sees the disconnects at its next write (the heartbeat at the latest).
    for (let i = 0; i < 100 && h.companion.openStreams() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(h.companion.openStreams(), 0);
  });
});
