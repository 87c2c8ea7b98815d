/**
 * docs/backends/python/momo.py says what went wrong, as the PHP helper does: every failure of
 * create_checkout and verify_webhook is a MomoError whose message names the cause (the companion
 * unreachable, an answer that is not the companion's, its refusal, a missing variable, a malformed
 * secret), never a bare URLError, KeyError or JSONDecodeError.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, requireRuntime, root } from './harness.js';

/**
 * What python3 raised from `call` (Python statements on the module `momo`): the class and the
 * message. Spawned, not spawnSync: the server below answers from this same process.
 */
async function raised(call: string, env: Record<string, string>): Promise<{ type: string; message: string }> {
  const program = `import json, momo\ntry:\n    ${call}\n    print(json.dumps({"type": "none", "message": ""}))\nexcept Exception as error:\n    print(json.dumps({"type": type(error).__name__, "message": str(error)}))`;
  const child = spawn('python3', ['-c', program], {
    cwd: join(root, 'docs/backends/python'),
    env: { PATH: process.env.PATH ?? '', PYTHONDONTWRITEBYTECODE: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  assert.equal(status, 0, stderr);
  return JSON.parse(stdout);
}

describe('docs/backends/python/momo.py errors', () => {
  let server: Server;
  let url: string;
  before(async () => {
    requireRuntime('python3', ['--version'], 'apt-get install -y python3 (3.9 or newer)');
    // Plays what a wrong MOMO_SERVER_URL may reach: a web page, the companion's refusal, a 200 that is not JSON.
    server = createServer((request, response) => {
      if (request.url === '/page/checkouts') response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><h1>Not Found</h1>');
      else if (request.url === '/html/checkouts') response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>shop</p>');
      else response.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'CONFLICT', message: 'Order "order-1" already has a checkout for 5000 XOF.' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const checkout = 'momo.create_checkout("order-1", "5000", "XOF")';
  const secret = { MOMO_SERVER_SECRET: 's'.repeat(40) };

  it('names the companion it cannot reach', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/momo/server`;
    assert.deepEqual(await raised(checkout, { MOMO_SERVER_URL: closed, ...secret }), {
      type: 'MomoError',
      message: `momo-checkout companion unreachable at ${closed}/checkouts: [Errno 111] Connection refused`,
    });
  });

  it('says an answer that is not JSON is not the companion, and shows its start', async () => {
    for (const path of ['/page', '/html']) {
      const error = await raised(checkout, { MOMO_SERVER_URL: `${url}${path}`, ...secret });
      assert.equal(error.type, 'MomoError');
      assert.match(error.message, /^momo-checkout: HTTP (404|200) from .* is not JSON: is MOMO_SERVER_URL the companion's <MOMO_PUBLIC_URL>\/server\? It answered: <!doctype html>/);
    }
  });

  it("passes on the companion's refusal", async () => {
    assert.deepEqual(await raised(checkout, { MOMO_SERVER_URL: `${url}/momo/server`, ...secret }), {
      type: 'MomoError',
      message: 'momo-checkout: HTTP 409 CONFLICT: Order "order-1" already has a checkout for 5000 XOF.',
    });
  });

  it('names a missing variable', async () => {
    assert.deepEqual(await raised(checkout, { MOMO_SERVER_URL: `${url}/momo/server` }), {
      type: 'MomoError',
      message: "MOMO_SERVER_SECRET is not set: see docs/backends.md, 'Run the companion'",
    });
  });

  it('says a malformed secret is malformed, and a body signed but not JSON is not a notification', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = `{"webhook-id": "id-1", "webhook-timestamp": "${now}", "webhook-signature": "v1,x"}`;
    assert.deepEqual(await raised(`momo.verify_webhook(b"{}", ${headers}, "whsec_not base64!")`, {}), {
      type: 'MomoError',
      message: 'the secret is not whsec_ followed by base64: copy MOMO_MERCHANT_WEBHOOK_SECRET as the companion has it',
    });
    const signed = `import base64, hashlib, hmac; s = "v1," + base64.b64encode(hmac.new(b"k" * 32, b"id-1.${now}.not json", hashlib.sha256).digest()).decode()`;
    const program = `${signed}\n    momo.verify_webhook(b"not json", {"webhook-id": "id-1", "webhook-timestamp": "${now}", "webhook-signature": s}, "whsec_" + base64.b64encode(b"k" * 32).decode())`;
    assert.deepEqual(await raised(program, {}), {
      type: 'MomoError',
      message: "the signed body is not JSON: is this endpoint receiving the companion's notifications?",
    });
  });
});
