/**
 * Issue 34: docs/deploy.md's Caddyfile, run by Debian's Caddy (2.6) with the test's certificate,
 * in front of `momo-checkout serve`: the same promises as the nginx test (behind-proxy.ts), with
 * the test's global block before the guide's site (caddy-runner.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openClients, provesClientAddressFromProxy, provesConsole, provesPaymentInChromium, provesServerApiClosedAndReadyz, provesStreamUnbuffered } from './behind-proxy.js';
import { guideCaddySite, startCaddy } from './caddy-runner.js';
import type { H2Client } from './h2-client.js';
import { startStack, type Stack } from './stack.js';

describe("docs/deploy.md: momo-checkout serve behind Debian's Caddy (TLS, HTTP/2)", () => {
  let stack: Stack;
  let client: H2Client;
  let browser: Browser;
  let clients: Awaited<ReturnType<typeof openClients>>;
  let site: string;

  before(async () => {
    stack = await startStack({ heartbeatMs: 1000 });
    site = await guideCaddySite(stack);
    await startCaddy(stack, 'caddy', site, stack.proxyPort);
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
