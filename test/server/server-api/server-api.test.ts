/**
 * The server API (merchant backend → companion): only the server secret opens it, never a page
 * token and never a browser; checkout creation is idempotent like createCheckout; a payment reads
 * back with its deliveries; a relayed notification must be the raw body.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { rawNumber, signWebhook } from '../../../src/server/index.js';
import { merchantEventTypes } from '../../../src/server/model/notification-kinds.js';
import { openApiFile, openApiText } from '../../../scripts/openapi.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';

const secret = 'test-server-secret-0123456789abcdef0123456789';
const push = { approve: '+2290196000001', noAnswer: '+2290196000003' };

let h: Harness;
before(async () => {
  h = await startHarness({ serverSecret: secret, setupChecksAtStart: false });
});
after(async () => h.close());

/** A call as a backend makes it: no Origin, the server secret unless told otherwise. */
function api(path: string, init: { method?: string; body?: unknown; rawBody?: string; auth?: string | null; origin?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  const auth = init.auth === undefined ? secret : init.auth;
  if (auth !== null) headers.authorization = `Bearer ${auth}`;
  if (init.origin) headers.origin = init.origin;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  return fetch(`${h.base}/server${path}`, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
}

async function apiJson<T = any>(path: string, init?: Parameters<typeof api>[1]): Promise<{ status: number; body: T }> {
  const response = await api(path, init);
  return { status: response.status, body: (await response.json()) as T };
}

describe('server API: who may call it', () => {
  it('refuses a request without the secret, with a wrong secret, and with a page token', async () => {
    const token = await h.checkout();
    for (const auth of [null, 'not-the-secret', token]) {
      const { status, body } = await apiJson('/payments', { auth });
      assert.equal(status, 401, `auth ${auth === null ? 'none' : auth === token ? 'page token' : 'wrong'}`);
      assert.equal(body.error.code, 'UNAUTHORIZED');
      assert.match(body.error.message, /MOMO_SERVER_SECRET/);
    }
  });

  it('refuses a browser (an Origin header) even with the right secret, saying the API is for the backend only', async () => {
    const { status, body } = await apiJson('/payments', { origin: 'https://shop.example' });
    assert.equal(status, 403);
    assert.equal(body.error.code, 'BROWSER_NOT_ALLOWED');
    assert.match(body.error.message, /merchant's backend only/);
  });

  it('the server secret never opens the page routes', async () => {
    const response = await h.call('/checkout', { token: secret });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as any).error.code, 'TOKEN_INVALID');
  });

  it('does not exist in library mode without serverSecret', async () => {
    const plain = await startHarness({ setupChecksAtStart: false });
    try {
      const response = await fetch(`${plain.base}/server/payments`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(response.status, 404);
    } finally {
      await plain.close();
    }
  });
});

describe('server API: checkouts', () => {
  it('creates a checkout whose token opens the page routes; the same order gives the same token', async () => {
    const orderId = newOrderId();
    const first = await apiJson('/checkouts', { body: { orderId, amount: '5000', currencyCode: 'XOF', returnUrl: 'https://shop.example/done' } });
    assert.equal(first.status, 200);
    assert.equal(first.body.orderId, orderId);
    assert.ok(Date.parse(first.body.expiresAt) > Date.now());
    const again = await apiJson('/checkouts', { body: { orderId, amount: '5000.00', currencyCode: 'XOF' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.token, first.body.token, 'idempotent on the order id');
    const library = await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
    assert.equal(library.token, first.body.token, 'the same core as createCheckout');
    const page = await h.json('/checkout', { token: first.body.token });
    assert.equal(page.status, 200);
    assert.equal(page.body.amount, '5000');
  });

  it('answers 409 when the order id already has another amount, saying what to do', async () => {
    const orderId = newOrderId();
    await apiJson('/checkouts', { body: { orderId, amount: '5000', currencyCode: 'XOF' } });
    const { status, body } = await apiJson('/checkouts', { body: { orderId, amount: '6000', currencyCode: 'XOF' } });
    assert.equal(status, 409);
    assert.equal(body.error.code, 'CONFLICT');
    assert.match(body.error.message, /already has a checkout for 5000 XOF.*new order id/);
  });

  it('names the missing or malformed field, refuses bad JSON and other content types', async () => {
    const missing = await apiJson('/checkouts', { body: { orderId: newOrderId(), amount: '5000' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.error, { code: 'BAD_REQUEST', message: 'Field "currencyCode" in the JSON body is missing.' });

    const float = await apiJson('/checkouts', { body: { orderId: newOrderId(), amount: 5000, currencyCode: 'XOF' } });
    assert.equal(float.status, 400);
    assert.match(float.body.error.message, /Field "amount" in the JSON body: must be a decimal string such as "5000"/);

    const badAmount = await apiJson('/checkouts', { body: { orderId: newOrderId(), amount: '5,000', currencyCode: 'XOF' } });
    assert.equal(badAmount.status, 400);
    assert.match(badAmount.body.error.message, /amount "5,000"/);

    const notJson = await apiJson('/checkouts', { rawBody: '{"orderId": "x",' });
    assert.equal(notJson.status, 400);
    assert.match(notJson.body.error.message, /not valid JSON/);

    const notObject = await apiJson('/checkouts', { rawBody: '[1,2]' });
    assert.equal(notObject.status, 400);
    assert.match(notObject.body.error.message, /must be an object/);

    const text = await apiJson('/checkouts', { rawBody: 'orderId=1', contentType: 'text/plain' });
    assert.equal(text.status, 415);
    assert.match(text.body.error.message, /Content-Type: application\/json/);
  });
});

describe('server API: payments', () => {
  it('reads a payment with its summary and deliveries, 404 for an unknown order', async () => {
    const unknown = await apiJson('/payments/no-such-order');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /POST .*\/server\/checkouts/);

    const orderId = newOrderId();
    const { body: created } = await apiJson('/checkouts', { body: { orderId, amount: '5000', currencyCode: 'XOF' } });
    const before = await apiJson(`/payments/${orderId}`);
    assert.equal(before.status, 200);
    assert.equal(before.body.payment, null);
    assert.equal(before.body.summary, null);

    await h.json('/checkout/pay', { token: created.token, body: { phoneNumber: push.approve, useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    // onPaymentUpdate (the harness's callback sink) acknowledges both transitions.
    const deadline = Date.now() + 5_000;
    let read = await apiJson(`/payments/${orderId}`);
    while (read.body.deliveries.log.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      read = await apiJson(`/payments/${orderId}`);
    }
    assert.equal(read.body.payment.state, 'completed');
    assert.equal(read.body.summary.state, 'completed');
    assert.equal(read.body.summary.phoneNumberMasked.endsWith('01'), true);
    assert.ok(!JSON.stringify(read.body).includes(push.approve), 'no full phone number');
    assert.deepEqual(read.body.deliveries.pending, []);
    assert.deepEqual(read.body.deliveries.log.map((attempt: any) => [attempt.sink, attempt.ok]), [['callback', true], ['callback', true]]);
    assert.match(read.body.deliveries.log[1].webhookId, new RegExp(`^${orderId}\\.[\\w-]{12}\\.2$`), '<orderId>.<lifeId>.<version>');
  });

  it('lists payments by state and age, and names a bad query parameter', async () => {
    const orderId = newOrderId();
    const { body: created } = await apiJson('/checkouts', { body: { orderId, amount: '5000', currencyCode: 'XOF' } });
    await h.json('/checkout/pay', { token: created.token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    const pending = await apiJson('/payments?state=pending');
    assert.equal(pending.status, 200);
    assert.ok(pending.body.payments.some((payment: any) => payment.orderId === orderId && payment.state === 'pending'));
    const stale = await apiJson('/payments?state=stale&olderThanMinutes=60');
    assert.ok(!stale.body.payments.some((payment: any) => payment.orderId === orderId), 'not stale yet');
    const staleNow = await apiJson('/payments?state=stale&olderThanMinutes=0');
    const listed = staleNow.body.payments.find((payment: any) => payment.orderId === orderId);
    assert.match(listed.action, /support/);

    const bad = await apiJson('/payments?state=paid');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /^Field "state" in the query string: /);
  });
});

describe('server API: relaying a notification', () => {
  it('applies the raw body; refuses the same notification parsed and re-serialised', async () => {
    const orderId = newOrderId();
    const { body: created } = await apiJson('/checkouts', { body: { orderId, amount: '5000', currencyCode: 'XOF' } });
    await h.json('/checkout/pay', { token: created.token, body: { phoneNumber: push.noAnswer, useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'pending');
    // As a backend receives it: the amount written 5000.0 (§6.3.5: signed as written).
    const raw = await signWebhook({ phoneNumber: push.noAnswer, amount: rawNumber('5000.0'), orderId, status: 'completed' }, h.sandbox.webhookSecret);

    const reserialised = await apiJson('/notifications', { rawBody: JSON.stringify(JSON.parse(raw)) });
    assert.equal(reserialised.status, 422);
    assert.equal(reserialised.body.error.code, 'NOTIFICATION_REFUSED');
    assert.match(reserialised.body.error.message, /SIGNATURE_MISMATCH.*exactly as your endpoint received it/s);
    const sorted = Object.fromEntries(Object.entries(JSON.parse(raw) as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
    assert.equal((await apiJson('/notifications', { rawBody: JSON.stringify(sorted) })).status, 422, 'keys reordered: refused too');
    assert.equal((await h.companion.getPayment(orderId))?.state, 'pending', 'nothing applied');

    const relayed = await apiJson('/notifications', { rawBody: raw });
    assert.equal(relayed.status, 200);
    assert.deepEqual(relayed.body, { outcome: 'applied', orderId, state: 'completed' });
    assert.equal((await h.companion.getPayment(orderId))?.state, 'completed');
    const again = await apiJson('/notifications', { rawBody: raw });
    assert.deepEqual(again.body, { outcome: 'duplicate', orderId });
  });

  it('refuses a body over 64 KB', async () => {
    const { status, body } = await apiJson('/notifications', { rawBody: `{"pad":"${'x'.repeat(70_000)}"}` });
    assert.equal(status, 413);
    assert.equal(body.error.code, 'PAYLOAD_TOO_LARGE');
  });
});

describe('server API: OpenAPI document', () => {
  it('is served with this server URL, without the secret', async () => {
    const response = await fetch(`${h.base}/server/openapi.json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as any;
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(document.servers.map((server: any) => server.url), [`${h.base}/server`]);
    assert.deepEqual(Object.keys(document.paths).sort(), ['/checkouts', '/links', '/links/{linkId}', '/links/{linkId}/close', '/notifications', '/notifications/test', '/payments', '/payments/{orderId}', '/payments/{orderId}/redeliver', '/payments/{orderId}/refunds']);
    // Each kind of the table (model/notification-kinds.ts): a kind added there is documented too.
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...merchantEventTypes].sort(), 'every merchant notification type is documented');
  });

  it('docs/openapi.json is current (run `npm run openapi` to rewrite it)', async () => {
    const committed = await readFile(openApiFile, 'utf8');
    assert.equal(committed, openApiText(), 'docs/openapi.json is stale: run `npm run openapi` and commit the result');
  });
});
