import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { eventually, startReceiver, verifyIndependently, type Receiver } from './helpers.js';

let counter = 0;
const newOrder = () => `wh-${++counter}`;

describe('webhooks over real HTTP (§6)', () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  const logs: string[] = [];

  before(async () => {
    sandbox = await startSandbox({ pushDelayMs: 20, log: (line) => logs.push(line) });
    receiver = await startReceiver();
  });
  after(async () => {
    await sandbox.close();
    await receiver.close();
  });

  const post = async (path: string, body: object) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('serves on 127.0.0.1 with no trailing slash', () => {
    assert.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('notifies a completed push once, signed per §6.3, keys in the documented order', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    const answer = await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: `${receiver.url}/hook` });
    assert.equal(answer.status, 200);
    const [notification] = await receiver.waitFor(1);
    assert.equal(notification!.path, '/hook');
    assert.equal(notification!.contentType, 'application/json');
    const body = JSON.parse(notification!.body);
    assert.deepEqual(Object.keys(body), ['phoneNumber', 'amount', 'orderId', 'status', '_nonce', '_timestamp', 'signature']);
    assert.equal(body.status, 'completed');
    assert.equal(body.orderId, orderId);
    assert.match(notification!.body, /"amount":5000,/);
    assert.ok(Number.isInteger(body._timestamp));
    assert.match(body.signature, /^[0-9a-f]{128}$/);
    assert.ok(verifyIndependently(notification!.body, sandbox.webhookSecret));
    assert.equal(verifyIndependently(notification!.body, 'whsec_other'), false);
    assert.equal(sandbox.control.transaction(orderId)?.status, 'completed');
    await eventually(() => sandbox.control.deliveries().some((entry) => entry.orderId === orderId && entry.ok && entry.httpStatus === 200));
  });

  it('writes the amount digits as the pay-in wrote them (12.50 stays 12.50) and signs them so', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    const response = await fetch(`${sandbox.url}/v1/pay-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: `{"orderId":"${orderId}","amount":12.50,"phoneNumber":"+243810000001","currencyCode":"USD","webhookUrl":"${receiver.url}/"}`,
    });
    assert.equal(response.status, 200);
    const [notification] = await receiver.waitFor(1);
    assert.match(notification!.body, /"amount":12\.50,/);
    assert.ok(verifyIndependently(notification!.body, sandbox.webhookSecret));
  });

  it('notifies failed for a declining number, with no failure cause (§6.2)', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290196000002', currencyCode: 'XOF', webhookUrl: receiver.url });
    const [notification] = await receiver.waitFor(1);
    const body = JSON.parse(notification!.body);
    assert.equal(body.status, 'failed');
    assert.equal('failureCategory' in body, false);
  });

  it('keeps a no-answer number pending until control.settle, which notifies', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290196000003', currencyCode: 'XOF', webhookUrl: receiver.url });
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(sandbox.control.transaction(orderId)?.status, 'pending');
    assert.equal(receiver.received.length, 0);
    await sandbox.control.settle(orderId, 'completed');
    assert.equal(receiver.received.length, 1);
    await assert.rejects(sandbox.control.settle(orderId, 'failed'), /already completed/);
  });

  it('settles an OTP payment shortly after, with the code already checked', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290194000001', currencyCode: 'XOF', otp: '123456', webhookUrl: receiver.url });
    const [notification] = await receiver.waitFor(1);
    assert.equal(JSON.parse(notification!.body).status, 'completed');
  });

  it('never notifies a transaction without webhookUrl, and logs it (§6.1)', async () => {
    const orderId = newOrder();
    await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF' });
    await eventually(() => sandbox.control.transaction(orderId)?.status === 'completed');
    assert.equal(sandbox.control.deliveries().filter((entry) => entry.orderId === orderId).length, 0);
    assert.ok(logs.some((line) => line.includes(orderId) && line.includes('no webhookUrl')));
  });

  it('runs the redirect flow: pending webhook with the authorisation URL, the page, Approve -> 303 + completed webhook', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    const answer = await post('/v1/pay-in', {
      orderId,
      amount: 7000,
      phoneNumber: '+2250100000001',
      currencyCode: 'XOF',
      operatorCode: 'wallet',
      redirectUrls: { success: 'https://shop.test/paid', failure: 'https://shop.test/not-paid' },
      webhookUrl: receiver.url,
    });
    assert.equal(answer.status, 200);
    const [pending] = await receiver.waitFor(1);
    const pendingBody = JSON.parse(pending!.body);
    assert.deepEqual(Object.keys(pendingBody), ['phoneNumber', 'amount', 'orderId', 'status', 'nextAction', '_nonce', '_timestamp', 'signature']);
    assert.equal(pendingBody.status, 'pending');
    assert.equal(pendingBody.nextAction.authorizationUrl, `${sandbox.url}/authorize/${answer.body.data.transactionId}`);
    assert.ok(verifyIndependently(pending!.body, sandbox.webhookSecret));

    const page = await fetch(pendingBody.nextAction.authorizationUrl);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /SANDBOX/);
    assert.match(html, /7000 XOF/);
    assert.match(html, /<form method="post"/);
    assert.match(html, /value="approve"/);
    assert.match(html, /value="decline"/);

    const click = await fetch(pendingBody.nextAction.authorizationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    assert.equal(click.status, 303);
    assert.equal(click.headers.get('location'), 'https://shop.test/paid');
    const [, final] = await receiver.waitFor(2);
    assert.equal(JSON.parse(final!.body).status, 'completed');
    assert.ok(verifyIndependently(final!.body, sandbox.webhookSecret));

    const again = await fetch(pendingBody.nextAction.authorizationUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=decline',
      redirect: 'manual',
    });
    assert.equal(again.status, 409);
  });

  it('sends Decline to the failure URL with a failed webhook', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    const answer = await post('/v1/pay-in', {
      orderId, amount: 7000, phoneNumber: '+2290196000001', currencyCode: 'XOF', operatorCode: 'wallet',
      redirectUrls: { success: 'https://shop.test/paid', failure: 'https://shop.test/not-paid' }, webhookUrl: receiver.url,
    });
    const click = await fetch(`${sandbox.url}/authorize/${answer.body.data.transactionId}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=decline', redirect: 'manual',
    });
    assert.equal(click.headers.get('location'), 'https://shop.test/not-paid');
    const [, final] = await receiver.waitFor(2);
    assert.equal(JSON.parse(final!.body).status, 'failed');
  });

  it('re-emits: duplicate byte-identical, stale 1 h old, forged with a wrong secret, out-of-order pending after final', async () => {
    receiver.received.length = 0;
    const orderId = newOrder();
    await post('/v1/pay-in', { orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: receiver.url });
    const [original] = await receiver.waitFor(1);
    const duplicate = await sandbox.control.reemit(orderId, 'duplicate');
    assert.equal(duplicate.ok, true);
    assert.equal(receiver.received[1]!.body, original!.body);

    await sandbox.control.reemit(orderId, 'stale');
    const stale = JSON.parse(receiver.received[2]!.body);
    assert.ok(verifyIndependently(receiver.received[2]!.body, sandbox.webhookSecret));
    assert.ok(Date.now() - stale._timestamp >= 3_600_000 - 5_000);

    await sandbox.control.reemit(orderId, 'forged');
    assert.equal(verifyIndependently(receiver.received[3]!.body, sandbox.webhookSecret), false);

    await sandbox.control.reemit(orderId, 'out-of-order');
    const late = JSON.parse(receiver.received[4]!.body);
    assert.equal(late.status, 'pending');
    assert.ok(verifyIndependently(receiver.received[4]!.body, sandbox.webhookSecret));
  });

  it('signs with the newest secret once POST /v1/webhook-secrets created one', async () => {
    receiver.received.length = 0;
    const created = await post('/v1/webhook-secrets', {});
    const secret = created.body.data.secret as string;
    await post('/v1/pay-in', { orderId: newOrder(), amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: receiver.url });
    const [notification] = await receiver.waitFor(1);
    assert.ok(verifyIndependently(notification!.body, secret));
  });

  it('notifies a pay-out: completed, and a synchronous failure with its cause', async () => {
    receiver.received.length = 0;
    await post('/v1/pay-out', { orderId: newOrder(), amount: 100, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: receiver.url });
    await post('/v1/pay-out', { orderId: newOrder(), amount: 99_999_999, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: receiver.url });
    const bodies = (await receiver.waitFor(2)).map((entry) => JSON.parse(entry.body));
    const failed = bodies.find((body) => body.status === 'failed');
    assert.equal(failed.failureCategory, 'INSUFFICIENT_FUNDS');
    assert.deepEqual(Object.keys(failed), ['phoneNumber', 'amount', 'orderId', 'status', 'failureCategory', 'failureReason', '_nonce', '_timestamp', 'signature']);
    assert.ok(bodies.some((body) => body.status === 'completed'));
  });

  it('logs once per URL that the real service would drop it (§6.4), and never a secret, OTP or full number', () => {
    const warnings = logs.filter((line) => line.includes(`${receiver.url}/hook`) && line.includes('would drop'));
    assert.equal(warnings.length, 1);
    for (const line of logs) {
      assert.match(line, /^sandbox: /);
      assert.ok(!line.includes(sandbox.apiKey), 'API key in a log line');
      assert.ok(!line.includes('whsec_'), 'secret in a log line');
      assert.ok(!line.includes('123456'), 'OTP in a log line');
      assert.doesNotMatch(line, /\+\d{9,}/, 'full phone number in a log line');
    }
  });
});

describe('webhook delivery failures (§6.4)', () => {
  it('does not follow redirects and records non-2xx answers as lost', async () => {
    let mode: 'redirect' | 'error' = 'redirect';
    const target = await startReceiver();
    const receiver = await startReceiver((_req, res) => {
      if (mode === 'redirect') {
        res.writeHead(302, { location: `${target.url}/elsewhere` });
        res.end();
      } else {
        res.writeHead(500);
        res.end('boom');
      }
    });
    const sandbox = await startSandbox({ pushDelayMs: 5, log: () => {} });
    try {
      await sandbox.fetch(new Request(`${sandbox.url}/v1/pay-in`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'redir', amount: 5000, phoneNumber: '+2290196000003', currencyCode: 'XOF', webhookUrl: receiver.url }),
      }));
      await sandbox.control.settle('redir', 'completed');
      const [redirect] = sandbox.control.deliveries();
      assert.equal(redirect!.httpStatus, 302);
      assert.equal(redirect!.ok, false);
      assert.match(redirect!.error!, /redirect/);
      assert.equal(target.received.length, 0, 'the redirect target must not be called');

      mode = 'error';
      const again = await sandbox.control.reemit('redir', 'duplicate');
      assert.equal(again.httpStatus, 500);
      assert.equal(again.ok, false);
      assert.equal(sandbox.control.deliveries().length, 2);
    } finally {
      await sandbox.close();
      await receiver.close();
      await target.close();
    }
  });

  it('records an unreachable receiver as lost, with the URL and an error', async () => {
    const sandbox = await startSandbox({ pushDelayMs: 5, log: () => {} });
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    try {
      await sandbox.fetch(new Request(`${sandbox.url}/v1/pay-in`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'gone', amount: 5000, phoneNumber: '+2290196000003', currencyCode: 'XOF', webhookUrl: url }),
      }));
      await sandbox.control.settle('gone', 'failed');
      const [delivery] = sandbox.control.deliveries();
      assert.equal(delivery!.url, url);
      assert.equal(delivery!.ok, false);
      assert.equal(delivery!.httpStatus, undefined);
      assert.match(delivery!.error!, /could not reach/);
    } finally {
      await sandbox.close();
    }
  });
});
