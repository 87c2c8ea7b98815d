/**
 * `momo-checkout redeliver ORDER` and `momo-checkout ping`, run as a merchant runs them, against a
 * running companion (server API) and a real merchant endpoint.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { merchantSecret, startReceiver, until } from '../deliveries/merchant-receiver.js';

const serverSecret = 'test-server-secret-0123456789abcdef0123456789';

/** Not spawnSync: the companion the command calls is served by this very process. */
function cli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('momo-checkout redeliver and ping', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let h: Harness;
  let env: Record<string, string>;
  before(async () => {
    receiver = await startReceiver();
    h = await startHarness({ deliveryRetryDelaysMs: [3_600_000], setupChecksAtStart: false, serverSecret, merchantEvents: ['payment.updated', 'test.ping'], merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret });
    env = { MOMO_PUBLIC_URL: h.base, MOMO_SERVER_SECRET: serverSecret };
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('redeliver sends what the endpoint refused, says how each went, and exits 1 while one is not delivered', async () => {
    receiver.answer = () => 500;
    const orderId = newOrderId();
    await h.json('/checkout/pay', { token: await h.checkout(orderId), body: { phoneNumber: '+2290196000001', useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    await until('the refusal', () => receiver.received.some((item) => item.body.includes(orderId)));

    const failing = await cli(['redeliver', orderId], env);
    assert.equal(failing.status, 1, failing.stderr);
    assert.match(failing.stdout, /pending\s+NOT delivered: HTTP 500/);

    receiver.answer = () => 204;
    const fixed = await cli(['redeliver', orderId], env);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.match(fixed.stdout, new RegExp(`Sent 2 notification\\(s\\) of order ${orderId} again`));
    assert.match(fixed.stdout, /completed\s+delivered \(HTTP 204\)/);
  });

  it('ping reports the endpoint\'s answer; a companion that is not there is named with what to check', async () => {
    receiver.answer = () => 204;
    const ok = await cli(['ping'], env);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /OK {4}test\.ping to http:\/\/127\.0\.0\.1:\d+\/momo-events: HTTP 204 in \d+ ms/);

    receiver.answer = () => 401;
    const refused = await cli(['ping'], env);
    assert.equal(refused.status, 1);
    assert.match(refused.stdout, /FAIL {2}test\.ping .*HTTP 401/);

    const nowhere = await cli(['ping', '--url', 'http://127.0.0.1:9/momo/server'], env);
    assert.equal(nowhere.status, 1);
    assert.match(nowhere.stdout, /could not reach the companion at http:\/\/127\.0\.0\.1:9\/momo\/server\/notifications\/test .*momo-checkout serve/);
  });

  it('reaches the server API the one way refund does: MOMO_SERVER_URL, or --url with the same value, for ping, redeliver and payments', async () => {
    receiver.answer = () => 204;
    const orderId = newOrderId();
    await h.json('/checkout/pay', { token: await h.checkout(orderId), body: { phoneNumber: '+2290196000001', useWallet: false } });
    await h.waitFor(orderId, (view) => view.state === 'completed');
    const serverUrl = { MOMO_SERVER_URL: `${h.base}/server`, MOMO_SERVER_SECRET: serverSecret };
    const ping = await cli(['ping'], serverUrl);
    assert.equal(ping.status, 0, ping.stdout + ping.stderr);
    const redeliver = await cli(['redeliver', orderId], serverUrl);
    assert.equal(redeliver.status, 0, redeliver.stdout + redeliver.stderr);
    const payments = await cli(['payments', '--state', 'completed'], serverUrl);
    assert.equal(payments.status, 0, payments.stdout + payments.stderr);
    assert.match(payments.stdout, new RegExp(`payment\\(s\\) in the companion at ${h.base}/server\\.[\\s\\S]*${orderId}\\s+completed`));
    // --url means what MOMO_SERVER_URL means (it used to be the companion's address: /server/server/... and a 404).
    const flag = await cli(['ping', '--url', `${h.base}/server`], { MOMO_SERVER_SECRET: serverSecret });
    assert.equal(flag.status, 0, flag.stdout + flag.stderr);
    const companionAddress = await cli(['redeliver', orderId, '--url', h.base], { MOMO_SERVER_SECRET: serverSecret });
    assert.equal(companionAddress.status, 2);
    assert.match(companionAddress.stderr, /--url is the server API's address, the companion's public URL followed by \/server/);
  });

  it('says what to set or give when the order id or the secret is missing, and takes --help', async () => {
    const noOrder = await cli(['redeliver'], env);
    assert.equal(noOrder.status, 2);
    assert.match(noOrder.stderr, /Give one order id/);
    const noSecret = await cli(['ping'], { MOMO_PUBLIC_URL: h.base, MOMO_SERVER_SECRET: '' });
    assert.equal(noSecret.status, 2);
    assert.match(noSecret.stderr, /Set MOMO_SERVER_SECRET/);
    const help = await cli(['payments', '--help'], {});
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--stale: open\s+with no news for 15 minutes/);
  });
});
