/**
 * Issue 34: docs/deploy.md's nginx file, run by Debian's nginx with TLS (a self-signed certificate
 * made at the start) and HTTP/2, in front of `momo-checkout serve` and the sandbox. Through it: a
 * status stream written as it happens, a payment in Chromium through the element (the service's
 * notifications coming through nginx too), the console, the client's address from nginx and never
 * from a forged header (and, as a counter-example, the forged one believed when the file appends to
 * the header instead of replacing it), the server API closed, /readyz; and the same file with a 3 s
 * `proxy_read_timeout`, whose stream outlives the timeout on a 1 s heartbeat. nginx missing fails
 * the test with the package to install.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freePort } from '../support/free-port.js';
import { createCheckout, newOrderId, openClients, provesClientAddressFromProxy, provesConsole, provesPaymentInChromium, provesServerApiClosedAndReadyz, provesStreamUnbuffered } from './behind-proxy.js';
import { H2Client } from './h2-client.js';
import { startNginx, type RunningNginx } from './nginx-runner.js';
import { startStack, type Stack } from './stack.js';

describe("docs/deploy.md: momo-checkout serve behind Debian's nginx (TLS, HTTP/2)", () => {
  let stack: Stack;
  let nginx: RunningNginx;
  let client: H2Client;
  let browser: Browser;
  let clients: Awaited<ReturnType<typeof openClients>>;

  before(async () => {
    stack = await startStack({ heartbeatMs: 1000 });
    nginx = await startNginx(stack, 'nginx', { port: stack.proxyPort, httpPort: await freePort() });
    clients = await openClients(stack);
    ({ client, browser } = clients);
  });

  after(async () => {
    await clients?.close();
    await stack?.close();
  });

  it('runs the guide\'s file with only the listed placeholders replaced', () => {
    assert.match(nginx.site, /proxy_buffering off;/);
    assert.match(nginx.site, /proxy_set_header X-Forwarded-For \$remote_addr;/);
    assert.doesNotMatch(nginx.site, /shop\.example\/|:3000|:8000|letsencrypt/);
  });

  it('streams the payment status over HTTP/2 as it happens: a heartbeat, then pending well before completed', async () => {
    await provesStreamUnbuffered(stack, client);
  });

  it('pays in Chromium through nginx: the element over HTTP/2, the notifications through nginx too', async () => {
    await provesPaymentInChromium(stack, browser);
    const log = await nginx.accessLog();
    assert.ok(log.some((line) => line.startsWith('HTTP/2.0 GET /momo/checkout/events 200')), `Chromium read the status stream over HTTP/2:\n${log.join('\n')}`);
    assert.ok(log.some((line) => /^HTTP\/1\.1 POST \/momo\/webhook 200/.test(line)), `the service's notifications came through nginx over https:\n${log.join('\n')}`);
  });

  // Before the client-address test, which spends 127.0.0.1's sign-in attempts for a minute.
  it('serves the console: sign-in page, sign-in, overview', async () => {
    await provesConsole(stack, browser);
  });

  it('takes the client address from nginx, never from the X-Forwarded-For the client sent', async () => {
    const forged = await provesClientAddressFromProxy(stack, client);
    const log = await nginx.accessLog();
    assert.ok(forged.every((address) => log.some((line) => line.includes(`/momo/console/sign-in 4`) && line.endsWith(`"${address}"`))), 'the forged headers did reach nginx');
  });

  it('would take a forged address were X-Forwarded-For appended to (the guide, section 4, says why it is replaced)', async () => {
    const appended = await startNginx(stack, 'nginx-appended', { port: await freePort(), httpPort: await freePort() }, [
      ['proxy_set_header X-Forwarded-For $remote_addr;', 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;'],
    ]);
    const appendedClient = await H2Client.connect(`https://127.0.0.1:${appended.port}`, stack.cert);
    try {
      const answer = await appendedClient.fetch('/momo/console/sign-in', {
        method: 'POST',
        headers: { origin: stack.origin, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9' },
        body: 'secret=not-the-secret',
      });
      assert.equal(answer.status, 401, 'a fresh address: not limited, unlike 127.0.0.1 by now');
      await stack.until('the forged address in the companion log', async () => stack.companionLines().some((line) => line.address === '203.0.113.9'), 5_000);
    } finally {
      await appendedClient.close();
    }
  });

  it('answers /readyz for the load balancer, refuses the server API and a body over 64 KB', async () => {
    await provesServerApiClosedAndReadyz(stack, client).catch(async (error: Error) => {
      throw new Error(`${error.message}\n--- nginx error log ---\n${await nginx.errorLog()}`, { cause: error });
    });
  });

  it('redirects http to https', async () => {
    const answer = await fetch(`http://127.0.0.1:${nginx.httpPort}/checkout?order=1`, { redirect: 'manual' });
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.get('location'), 'https://127.0.0.1/checkout?order=1');
  });

  it('keeps a stream open past a 3 s proxy_read_timeout with a 1 s heartbeat (the guide, section 6)', async () => {
    const short = await startNginx(stack, 'nginx-short-timeout', { port: await freePort(), httpPort: await freePort() }, [['proxy_read_timeout 60s;', 'proxy_read_timeout 3s;']]);
    assert.match(short.site, /proxy_read_timeout 3s;/);
    const shortClient = await H2Client.connect(`https://127.0.0.1:${short.port}`, stack.cert);
    try {
      const token = await createCheckout(stack, newOrderId());
      const stream = shortClient.open('/momo/checkout/events', { headers: { authorization: `Bearer ${token}` } });
      assert.equal(await stream.status, 200);
      let cut = false;
      void stream.ended.then(() => (cut = true), () => (cut = true));
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      assert.equal(cut, false, `the stream is still open 5 s later, past the 3 s read timeout:\n${stream.text()}`);
      const pings = stream.chunks.filter((chunk) => chunk.text.includes(': ping'));
      assert.ok(pings.length >= 3, `heartbeats kept it busy (${pings.length})`);
      stream.cancel();
    } finally {
      await shortClient.close();
    }
  });
});
