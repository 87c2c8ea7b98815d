/**
 * What docs/deploy.md promises of a proxy in front of `momo-checkout serve`, checked through the
 * proxy the test started (nginx or Caddy, from the guide's file): HTTP/2 over TLS, a status stream
 * written as it happens (a heartbeat, then each state as the payment moves), a payment paid in
 * Chromium through the element, the console, the client's address taken from the proxy and never
 * from a header the client wrote, the server API closed to the public, and /readyz.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { H2Client } from './h2-client.js';
import type { Stack } from './stack.js';

const approve = '+2290196000001';

/** The two clients of the proxy: node:http2 (trusting the test's certificate) and Chromium. */
export async function openClients(stack: Stack): Promise<{ client: H2Client; browser: Browser; close(): Promise<void> }> {
  const client = await H2Client.connect(stack.origin, stack.cert);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }).catch(async (error: unknown) => {
    await client.close();
    throw error;
  });
  return { client, browser, close: async () => void (await Promise.all([client.close(), browser.close()])) };
}

export function newOrderId(): string {
  return `deploy-${randomBytes(6).toString('hex')}`;
}

/** A checkout created as the shop does, on loopback (the server API is not public). */
export async function createCheckout(stack: Stack, orderId: string): Promise<string> {
  const created = await fetch(`http://127.0.0.1:${stack.companionPort}/momo/server/checkouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.serverSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
  });
  assert.equal(created.status, 200, await created.clone().text());
  return ((await created.json()) as { token: string }).token;
}

interface StreamEvent {
  at: number;
  state: string;
}

/** The `payment` events in a status stream's chunks, each with when its chunk arrived. */
export function paymentEvents(chunks: Array<{ at: number; text: string }>): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const chunk of chunks) {
    for (const match of chunk.text.matchAll(/^event: payment\ndata: (.*)$/gm)) events.push({ at: chunk.at, state: (JSON.parse(match[1]!) as { state: string }).state });
  }
  return events;
}

/**
 * Opens a status stream through the proxy, sees a heartbeat arrive while it is open, pays through
 * the proxy, and sees `pending` arrive well before `completed` ends the stream (the sandbox settles
 * the push 1.5 s later): a buffering proxy would deliver it all at the end.
 */
export async function provesStreamUnbuffered(stack: Stack, client: H2Client): Promise<void> {
  assert.equal(client.alpn, 'h2', 'HTTP/2 negotiated over TLS (ALPN)');
  const orderId = newOrderId();
  const token = await createCheckout(stack, orderId);
  const stream = client.open('/momo/checkout/events', { headers: { authorization: `Bearer ${token}` } });
  assert.equal(await stream.status, 200);
  assert.match(String((await stream.headers)['content-type']), /^text\/event-stream/);
  let ended = 0;
  void stream.ended.then(() => (ended = Date.now()), () => undefined);
  await stack.until('a heartbeat through the proxy', async () => stream.text().includes(': ping'), 10_000);
  assert.equal(ended, 0, 'the heartbeat arrived while the stream was open');

  const paid = await client.fetch('/momo/checkout/pay', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: stack.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: approve, useWallet: false }),
  });
  assert.equal(paid.status, 200, paid.body);
  await stream.ended;
  const events = paymentEvents(stream.chunks);
  assert.equal(events.at(-1)?.state, 'completed', `the final state came through the proxy: ${stream.text()}`);
  const pending = events.find((event) => event.state === 'pending');
  assert.ok(pending, `the pending state came through the proxy: ${stream.text()}`);
  assert.ok(ended - pending.at >= 700, `pending arrived ${ended - pending.at} ms before the stream ended: not held back by the proxy`);
}

/** The payer's side: the shop's page through the proxy, the element, a push number, "Payment received". */
export async function provesPaymentInChromium(stack: Stack, browser: Browser): Promise<string> {
  const orderId = newOrderId();
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${stack.origin}/checkout?order=${orderId}`);
    assert.equal(response?.status(), 200, stack.logs());
    const field = page.getByLabel('Mobile money number');
    await field.pressSequentially(approve);
    await field.press('Tab');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 20_000 });
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
  const details = await fetch(`http://127.0.0.1:${stack.companionPort}/momo/server/payments/${orderId}`, { headers: { authorization: `Bearer ${stack.serverSecret}` } });
  assert.equal(((await details.json()) as { payment: { state: string } }).payment.state, 'completed');
  return orderId;
}

/** The console through the proxy: its sign-in page, a sign-in with the server secret, its overview. */
export async function provesConsole(stack: Stack, browser: Browser): Promise<void> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const answer = await page.goto(`${stack.origin}/momo/console`);
    assert.equal(answer?.status(), 200);
    await page.getByLabel('Secret or password').fill(stack.serverSecret);
    await page.getByLabel('Secret or password').press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 15_000 });
    const cookies = await context.cookies(`${stack.origin}/momo/console`);
    const session = cookies.find((cookie) => cookie.path === '/momo/console');
    assert.ok(session?.secure && session.httpOnly, `a Secure, HttpOnly session cookie for the console's path: ${JSON.stringify(cookies)}`);
  } finally {
    await context.close();
  }
}

/**
 * Wrong console sign-ins through the proxy, each with another forged X-Forwarded-For: were the
 * header believed, each would come from a new address and none would meet the per-address limit
 * (5 a minute). The proxy replaces it with the address it saw, so they all count against
 * 127.0.0.1 and the limit refuses one by the sixth; the companion's log names 127.0.0.1 only.
 */
export async function provesClientAddressFromProxy(stack: Stack, client: H2Client): Promise<string[]> {
  const forged: string[] = [];
  let limited = false;
  for (let attempt = 1; attempt <= 6 && !limited; attempt++) {
    const address = `198.51.100.${attempt}`;
    forged.push(address);
    const answer = await client.fetch('/momo/console/sign-in', {
      method: 'POST',
      headers: { origin: stack.origin, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: `secret=not-the-secret-${attempt}`,
    });
    assert.ok([401, 429].includes(answer.status), `sign-in ${attempt}: ${answer.status} ${answer.body.slice(0, 200)}`);
    limited = answer.status === 429;
  }
  assert.ok(limited, 'the per-address sign-in limit was met: every attempt counted against one address');
  // The answer can come before the companion's log line has come through its pipe.
  const limitLine = (line: Record<string, unknown>) => line.msg === 'console sign-in refused: too many attempts from this address';
  await stack.until('the sign-in limit in the companion log', async () => stack.companionLines().some(limitLine), 5_000);
  const refusals = stack.companionLines().filter((line) => String(line.msg).startsWith('console sign-in refused'));
  assert.ok(refusals.some((line) => limitLine(line) && line.address === '127.0.0.1'), JSON.stringify(refusals));
  assert.deepEqual([...new Set(refusals.map((line) => line.address))], ['127.0.0.1'], 'the companion saw the address the proxy saw, never a forged one');
  return forged;
}

/** The server API refused to the public through the proxy; /readyz and the metrics (with their token) answered for monitoring. */
export async function provesServerApiClosedAndReadyz(stack: Stack, client: H2Client): Promise<void> {
  const ready = await client.fetch('/readyz');
  assert.equal(ready.status, 200, ready.body);
  assert.deepEqual(JSON.parse(ready.body), { ready: true });
  const serverApi = await client.fetch('/momo/server/payments?state=stale', { headers: { authorization: `Bearer ${stack.serverSecret}` } });
  assert.equal(serverApi.status, 403, 'the server API is not reachable through the proxy from outside the backend network');
  const unscraped = await client.fetch('/momo/metrics');
  assert.equal(unscraped.status, 401, 'the metrics ask for their token through the proxy too');
  const scrape = await client.fetch('/momo/metrics', { headers: { authorization: `Bearer ${stack.serverSecret}` } });
  assert.equal(scrape.status, 200, scrape.body);
  assert.match(scrape.body, /^momo_notifications_received_total\{result="applied"\} [1-9]/m, 'the scrape through the proxy counts the notifications that came through it');
  const tooLarge = await client.fetch('/momo/webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"pad":"${'x'.repeat(70 * 1024)}"}` });
  assert.equal(tooLarge.status, 413, 'a body over 64 KB is refused by the proxy');
}
