/**
 * A refused body (over the limit, or malformed) is answered with `Connection: close`: the server
 * closes that socket after the answer (the rest of an over-limit body is never read), so a client
 * that pools connections must not send its next request on it ("other side closed").
 *
 * A real node:http server and Node's fetch, which keeps connections alive and reuses them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../server/harness.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';

let h: Harness;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false });
});
after(async () => h.close());

const api = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${h.base}/server${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers }, body });

let count = 0;

/** The refused answer, then a second request from the same pool, which must succeed. */
async function refusedThenNext(refused: () => Promise<Response>, expectedStatus: number) {
  const answer = await refused();
  assert.equal(answer.status, expectedStatus);
  await answer.arrayBuffer();
  // A POST: a client never sends it again by itself after "other side closed".
  const next = await api('/checkouts', JSON.stringify({ orderId: `next-${++count}`, amount: '5000', currencyCode: 'XOF' }));
  assert.equal(next.status, 200, 'the next pooled request is served');
  await next.arrayBuffer();
  assert.equal(answer.headers.get('connection'), 'close', 'a refused body closes its connection, and says so');
}

describe('refused bodies close their connection', () => {
  it('server API: a body over 64 KB (413)', async () => {
    await refusedThenNext(() => api('/checkouts', JSON.stringify({ orderId: 'big', amount: '5000', currencyCode: 'XOF', pad: 'x'.repeat(200_000) })), 413);
  });

  it('server API: a body that is not JSON (400) and one that is not declared JSON (415)', async () => {
    await refusedThenNext(() => api('/checkouts', '{"orderId":'), 400);
    await refusedThenNext(() => api('/checkouts', 'orderId=1', { 'content-type': 'text/plain' }), 415);
  });

  it('page routes: a body over 8 KB, and a malformed one (400)', async () => {
    const token = await h.checkout();
    const pay = (body: string) =>
      fetch(`${h.base}/checkout/pay`, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' }, body });
    await refusedThenNext(() => pay(JSON.stringify({ phoneNumber: '+2290196000001', otp: 'x'.repeat(200_000) })), 400);
    await refusedThenNext(() => pay('{"phoneNumber":'), 400);
  });

  it('webhook route: a body over 64 KB (413)', async () => {
    await refusedThenNext(() => fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(200_000) }), 413);
  });
});
