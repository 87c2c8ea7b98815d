/**
 * The servers this project starts (the sandbox, the demo) cut a client that sends its request too
 * slowly, instead of holding the connection for Node's default 300 s (issue 12).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startDemo } from '../../demo/start-demo.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { serverTimeouts } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';

/** Sends a POST's headers and 2 of its 100 body bytes, then nothing; resolves with what the server did. */
function slowPost(url: string, path: string, giveUpMs: number, headers = ''): Promise<{ closed: boolean; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, answer });
    }, giveUpMs);
    socket.on('connect', () => socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n${headers}Content-Length: 100\r\n\r\n{"`));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, answer });
    });
  });
}

describe('server timeouts', () => {
  it('the defaults cut a request within seconds, far below Node\'s 300 s', () => {
    assert.ok(serverTimeouts.requestTimeout <= 30_000 && serverTimeouts.headersTimeout <= serverTimeouts.requestTimeout);
    assert.ok(serverTimeouts.connectionsCheckingInterval <= 5_000);
  });

  it('the sandbox cuts a slow body', async () => {
    const sandbox = await startSandbox({ port: 0, log: () => {}, requestTimeoutMs: 400 });
    try {
      // With the key, so the sandbox waits for the body instead of refusing at once.
      const result = await slowPost(sandbox.url, '/v1/pay-in', 5000, `Authorization: Bearer ${sandbox.apiKey}\r\n`);
      assert.equal(result.closed, true);
      assert.match(result.answer, /^HTTP\/1\.1 408/);
    } finally {
      await sandbox.close();
    }
  });

  it('the demo cuts a slow body on the webhook route', async () => {
    const demo = await startDemo({
      port: 0,
      log: () => {},
      companionLog: silentLogger,
      bundle: { code: Buffer.from(''), gzipBytes: 0, buildMs: 0 },
      timeouts: { requestTimeout: 400, headersTimeout: 400, connectionsCheckingInterval: 100 },
    });
    try {
      const result = await slowPost(demo.url, '/momo/webhook', 5000);
      assert.equal(result.closed, true);
      assert.match(result.answer, /^HTTP\/1\.1 408/);
    } finally {
      await demo.close();
    }
  });
});
