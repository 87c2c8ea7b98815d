/**
 * Issue 34: docs/deploy.md's Caddyfile, run by Debian's Caddy (2.6) with the test's certificate,
 * in front of `momo-checkout serve`: the same promises as the nginx test (behind-proxy.ts). The
 * test puts a global block of its own before the guide's site: no admin endpoint, Caddy's data in
 * the test's folder, no http-to-https listener on port 80. Caddy missing fails the test with the
 * package to install.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openClients, provesClientAddressFromProxy, provesConsole, provesPaymentInChromium, provesServerApiClosedAndReadyz, provesStreamUnbuffered } from './behind-proxy.js';
import { guideBlock, requireProgram, substitute } from './guide.js';
import type { H2Client } from './h2-client.js';
import { listening } from './nginx-runner.js';
import { startStack, type Stack } from './stack.js';

const caddyBinary = process.env.CADDY_PATH || '/usr/bin/caddy';

describe("docs/deploy.md: momo-checkout serve behind Debian's Caddy (TLS, HTTP/2)", () => {
  let stack: Stack;
  let client: H2Client;
  let browser: Browser;
  let clients: Awaited<ReturnType<typeof openClients>>;
  let site: string;

  before(async () => {
    requireProgram(caddyBinary, ['version'], 'caddy');
    stack = await startStack({ heartbeatMs: 1000 });
    site = substitute(await guideBlock('Caddyfile'), [
      ['shop.example {', `${stack.origin} {`],
      ['127.0.0.1:3000', `127.0.0.1:${stack.companionPort}`],
      ['127.0.0.1:8000', `127.0.0.1:${stack.shopPort}`],
      ['/etc/letsencrypt/live/shop.example/fullchain.pem', stack.cert],
      ['/etc/letsencrypt/live/shop.example/privkey.pem', stack.key],
    ]);
    const caddyfile = join(stack.dir, 'Caddyfile');
    await writeFile(caddyfile, `{\n\tadmin off\n\tauto_https disable_redirects\n\tstorage file_system ${join(stack.dir, 'caddy-data')}\n\tskip_install_trust\n}\n\n${site}\n`);
    stack.spawnChild('caddy', caddyBinary, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { XDG_DATA_HOME: stack.dir, XDG_CONFIG_HOME: stack.dir });
    await stack.until('Caddy to listen', () => listening(stack.proxyPort));
    clients = await openClients(stack);
    ({ client, browser } = clients);
  });

  after(async () => {
    await clients?.close();
    await stack?.close();
  });

  it("runs the guide's Caddyfile with only the listed placeholders replaced", () => {
    assert.match(site, /header_up X-Forwarded-For \{remote_host\}/);
    assert.doesNotMatch(site, /shop\.example|:3000|:8000|letsencrypt/);
  });

  it('streams the payment status over HTTP/2 as it happens', async () => {
    await provesStreamUnbuffered(stack, client);
  });

  it('pays in Chromium through Caddy', async () => {
    await provesPaymentInChromium(stack, browser);
  });

  // Before the client-address test, which spends 127.0.0.1's sign-in attempts for a minute.
  it('serves the console: sign-in page, sign-in, overview', async () => {
    await provesConsole(stack, browser);
  });

  it('takes the client address from Caddy, never from the X-Forwarded-For the client sent', async () => {
    await provesClientAddressFromProxy(stack, client);
  });

  it('answers /readyz for the load balancer, refuses the server API and a body over 64 KB', async () => {
    await provesServerApiClosedAndReadyz(stack, client);
  });
});
