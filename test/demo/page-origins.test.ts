/**
 * The demo page works at its loopback names without the companion trusting the Host header
 * (issue 12, item 5): they are configured origins, and another origin is still refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { silentLogger } from '../../src/server/log.js';

let demo: RunningDemo;
before(async () => {
  demo = await startDemo({ port: 0, log: () => {}, companionLog: silentLogger, bundle: { code: Buffer.from(''), gzipBytes: 0, buildMs: 0 }, allowedOrigins: ['http://192.0.2.10:8080'] });
});
after(async () => demo.close());

const lookupFrom = async (origin: string) => {
  const response = await fetch(`${demo.url}/momo/checkout/lookup`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
  return ((await response.json()) as { error: { code: string } }).error.code;
};

describe('demo page origins', () => {
  it('allows the printed URL, its loopback names and configured ones; refuses others', async () => {
    const port = new URL(demo.url).port;
    for (const origin of [demo.url, `http://localhost:${port}`, `http://[::1]:${port}`, 'http://192.0.2.10:8080']) {
      assert.equal(await lookupFrom(origin), 'TOKEN_MISSING', `${origin} passes the origin check`);
    }
    assert.equal(await lookupFrom('http://evil.example'), 'ORIGIN_NOT_ALLOWED');
    assert.equal(await lookupFrom(`http://localhost:${Number(port) + 1}`), 'ORIGIN_NOT_ALLOWED');
  });
});
