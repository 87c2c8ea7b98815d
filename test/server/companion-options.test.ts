/**
 * The companion's options beyond the flows: where it is mounted, what it reads from the
 * environment, its setup checks at start, the size of what it accepts, and a merchant callback
 * that throws.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { CompanionConfigError, companionOptionsFromEnv, createCompanion, createMemoryStore, signWebhook, type Logger } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';
import { newOrderId, startHarness } from './harness.js';

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 20, log: () => {} });
});
after(async () => sandbox.close());

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string; fields?: unknown }> } {
  const lines: Array<{ level: string; message: string; fields?: unknown }> = [];
  const at = (level: string) => (message: string, fields?: unknown) => void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const baseOptions = () => ({
  baseUrl: sandbox.url,
  apiKey: sandbox.apiKey,
  webhookSecrets: [sandbox.webhookSecret],
  allowedOrigins: ['http://shop.test'],
  allowInsecureLocalUrls: true,
  setupChecksAtStart: false,
  log: silentLogger,
  store: createMemoryStore(),
});

describe('environment', () => {
  const env = {
    MOMO_BASE_URL: 'https://api.example',
    MOMO_API_KEY: 'sk_live_x',
    MOMO_WEBHOOK_SECRETS: 'whsec_a',
    MOMO_PUBLIC_URL: 'https://shop.example/momo',
  };

  it('reads PORT and HOST, with defaults', () => {
    assert.deepEqual([companionOptionsFromEnv(env).port, companionOptionsFromEnv(env).host], [3000, '127.0.0.1']);
    const set = companionOptionsFromEnv({ ...env, PORT: '8080', HOST: '0.0.0.0', MOMO_ALLOWED_ORIGINS: 'https://a.example,https://b.example' });
    assert.equal(set.port, 8080);
    assert.equal(set.host, '0.0.0.0');
    assert.deepEqual(set.allowedOrigins, ['https://a.example', 'https://b.example']);
  });

  it('names a malformed PORT or MOMO_PUBLIC_URL', () => {
    assert.throws(() => companionOptionsFromEnv({ ...env, PORT: 'eighty' }), /PORT/);
    assert.throws(() => companionOptionsFromEnv({ ...env, MOMO_PUBLIC_URL: 'shop' }), /MOMO_PUBLIC_URL/);
  });
});

describe('mount path', () => {
  it('serves the routes under publicUrl + mountPath, and gives the service that webhook URL', async () => {
    const companion = createCompanion({ ...baseOptions(), publicUrl: 'http://127.0.0.1:1', mountPath: '/momo' });
    try {
      const orderId = newOrderId();
      const { token } = await companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF' });
      const headers = { authorization: `Bearer ${token}`, origin: 'http://shop.test', 'content-type': 'application/json' };
      const outside = await companion.fetch(new Request('http://127.0.0.1:1/checkout', { headers }));
      assert.equal(outside.status, 404);
      const pay = await companion.fetch(
        new Request('http://127.0.0.1:1/momo/checkout/pay', { method: 'POST', headers, body: JSON.stringify({ phoneNumber: '+2290196000003', useWallet: false }) }),
      );
      assert.equal(pay.status, 200);
      assert.equal(sandbox.control.transaction(orderId)?.webhookUrl, 'http://127.0.0.1:1/momo/webhook');
    } finally {
      await companion.close();
    }
  });

  it('refuses a mount path that does not start with "/"', () => {
    assert.throws(() => createCompanion({ ...baseOptions(), publicUrl: 'http://127.0.0.1:1', mountPath: 'momo' }), /mountPath/);
  });
});

describe('options checked at creation, for JavaScript callers too', () => {
  /** What a plain-JavaScript caller can pass: no compiler stands between it and createCompanion. */
  const untyped = (options: Record<string, unknown>) => () => createCompanion(options as unknown as Parameters<typeof createCompanion>[0]);
  const configError = (pattern: RegExp) => (error: unknown) => error instanceof CompanionConfigError && error.code === 'INVALID_OPTION' && pattern.test(error.message);

  it('a missing allowedOrigins is a CompanionConfigError naming it and what to pass, not a TypeError at the first payment', () => {
    const { allowedOrigins: _, ...withoutOrigins } = { ...baseOptions(), publicUrl: 'http://127.0.0.1:1' };
    assert.throws(untyped(withoutOrigins), configError(/option allowedOrigins is missing\. Pass .*allowedOrigins: \['https:\/\/shop\.example'\]/));
  });

  it('names a malformed option and what it got: a string for a list, an origin with a path, a string for a number', () => {
    const options = { ...baseOptions(), publicUrl: 'http://127.0.0.1:1' };
    assert.throws(untyped({ ...options, allowedOrigins: 'http://shop.test' }), configError(/option allowedOrigins is malformed: got "http:\/\/shop\.test"/));
    assert.throws(untyped({ ...options, allowedOrigins: ['http://shop.test/checkout'] }), configError(/allowedOrigins is malformed \(at allowedOrigins\.0\).*no path/));
    assert.throws(untyped({ ...options, webhookSecrets: undefined }), configError(/option webhookSecrets is missing\. Pass .*whsec_/));
    assert.throws(untyped({ ...options, apiKey: '' }), configError(/option apiKey is malformed/));
    assert.throws(untyped({ ...options, checkoutTtlMs: '600000' }), configError(/option checkoutTtlMs is malformed: got "600000"/));
    assert.throws(untyped({ ...options, onPaymentUpdate: 'fulfil' }), configError(/option onPaymentUpdate/));
    assert.throws(() => createCompanion(undefined as never), configError(/needs an options object/));
  });
});

describe('setup checks at start', () => {
  it('ready() runs them once and says loudly what is wrong', async () => {
    const log = recordingLogger();
    const companion = createCompanion({ ...baseOptions(), webhookSecrets: [], publicUrl: 'http://127.0.0.1:1/momo', log });
    try {
      const checks = await companion.ready();
      assert.equal(await companion.ready(), checks, 'run once');
      const byName = Object.fromEntries(checks.map((check) => [check.name, check.status]));
      assert.equal(byName['payment service'], 'ok');
      assert.equal(byName['webhook secrets'], 'error');
      assert.equal(byName['public URL'], 'warning', 'a loopback URL is tolerated for the sandbox, with a warning');
      assert.ok(log.lines.some((line) => line.level === 'error' && /webhook secrets/.test(line.message)));
      assert.ok(log.lines.every((line) => !line.message.includes(sandbox.apiKey)), 'the key is never logged');
    } finally {
      await companion.close();
    }
  });

  it('runs a failed round again after setupRecheckMs, and keeps a passed one', async () => {
    const failing = createCompanion({ ...baseOptions(), webhookSecrets: [], publicUrl: 'http://127.0.0.1:1/momo', setupRecheckMs: 0 });
    const passing = createCompanion({ ...baseOptions(), publicUrl: 'http://127.0.0.1:1/momo', setupRecheckMs: 0 });
    try {
      const first = await failing.ready();
      assert.ok(first.some((check) => check.status === 'error'));
      assert.notEqual(await failing.ready(), first, 'a failed round is run again (readiness can recover)');
      const passed = await passing.ready();
      assert.ok(passed.every((check) => check.status !== 'error'));
      assert.equal(await passing.ready(), passed, 'a passed round is kept');
    } finally {
      await failing.close();
      await passing.close();
    }
  });

  it('runs them in the background as soon as the companion is created, before any request', async () => {
    const log = recordingLogger();
    const companion = createCompanion({ ...baseOptions(), webhookSecrets: [], publicUrl: 'http://127.0.0.1:1/momo', log, setupChecksAtStart: true });
    await companion.close(); // waits for background work; no request was made
    assert.ok(log.lines.some((line) => line.level === 'error' && /webhook secrets/.test(line.message)));
  });

  it('does not run them when turned off', async () => {
    const log = recordingLogger();
    const companion = createCompanion({ ...baseOptions(), webhookSecrets: [], publicUrl: 'http://127.0.0.1:1/momo', log, setupChecksAtStart: false });
    await (await companion.fetch(new Request('http://127.0.0.1:1/momo/nothing'))).arrayBuffer();
    await companion.close();
    assert.deepEqual(log.lines.filter((line) => /setup/.test(line.message)), []);
  });
});

describe('limits and failures', () => {
  it('refuses a browser body over 8 KB and a webhook over 64 KB, before reading them', async () => {
    const h = await startHarness({ setupChecksAtStart: false });
    try {
      const token = await h.checkout();
      const big = await h.json('/checkout/lookup', { token, body: { phoneNumber: '+2290196000001', padding: 'x'.repeat(9000) } });
      assert.equal(big.status, 400);
      assert.equal(big.body.error.code, 'BAD_REQUEST');
      const webhook = await fetch(`${h.base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(70_000) });
      assert.equal(webhook.status, 413);
    } finally {
      await h.close();
    }
  });

  it('keeps the state, logs the error and keeps the update queued when onPaymentUpdate throws', async () => {
    const log = recordingLogger();
    const h = await startHarness({
      setupChecksAtStart: false,
      log,
      onPaymentUpdate: () => {
        throw new Error('fulfilment database down');
      },
    });
    try {
      const orderId = newOrderId();
      const token = await h.checkout(orderId);
      await h.json('/checkout/pay', { token, body: { phoneNumber: '+2290196000003', useWallet: false } });
      const body = await signWebhook({ phoneNumber: '+2290196000003', amount: 5000, orderId, status: 'completed' }, h.sandbox.webhookSecret);
      const result = await h.companion.handleWebhook(body);
      assert.equal(result.outcome, 'applied');
      assert.equal((await h.companion.getPayment(orderId))?.state, 'completed');
      const until = Date.now() + 5_000;
      while (!log.lines.some((line) => line.level === 'warn' && /not delivered: will retry/.test(line.message)) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(log.lines.some((line) => line.level === 'warn' && /not delivered: will retry/.test(line.message) && /fulfilment database down/.test(JSON.stringify(line))));
    } finally {
      await h.close();
    }
  });

  it('answers 404 to a return link it does not know, changing nothing', async () => {
    const h = await startHarness({ setupChecksAtStart: false });
    try {
      const response = await fetch(`${h.base}/return/not-a-return-id?outcome=success`, { redirect: 'manual' });
      assert.equal(response.status, 404);
      await response.arrayBuffer();
    } finally {
      await h.close();
    }
  });
});
