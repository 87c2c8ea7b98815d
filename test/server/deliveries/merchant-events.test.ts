/**
 * Merchant notifications by subscription (issue 36): an endpoint written for `payment.updated`
 * only, which answers 500 to anything else, receives nothing else by default (a refund included),
 * so nothing is retried at it for 72 hours; `refund.updated` reaches an endpoint that subscribed;
 * the test notification (server API, and the console's "Send test notification") goes only to an
 * endpoint that listed `test.ping`, once when asked, its answer shown, and is never retried.
 * Narrowing the list holds for notifications already queued and for `redeliver` (issue 40).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csrfHeader } from '../../../src/contract/console.js';
import { CompanionConfigError, createCompanion, createFileStore, type CompanionOptions } from '../../../src/server/index.js';
import { merchantEventsFromEnv } from '../../../src/server/deliveries/merchant-events.js';
import { standaloneOptionsFromEnv } from '../../../src/server/commands/standalone-options.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { merchantSecret, startReceiver, until, verified, type Answer } from './merchant-receiver.js';

const serverSecret = 'events-test-server-secret-0123456789abcdef';
const payer = '+2290196000001';

describe('merchant notifications by subscription', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
    receiver.answer = paymentsOnly;
  });
  after(() => receiver.close());

  // The handler of the earlier docs: it reads data.payment, and anything else makes it fail.
  const paymentsOnly: Answer = (_req, _res, body) => ((JSON.parse(body) as { type: string }).type === 'payment.updated' ? 204 : 500);
  const options = (extra: Partial<CompanionOptions> = {}): Partial<CompanionOptions> => ({
    refunds: true,
    serverSecret,
    consolePassword: 'console-password-0123',
    merchantWebhookUrl: receiver.url,
    merchantWebhookSecret: merchantSecret,
    // A refused notification is retried after 30 ms: a retry would show at once.
    deliveryRetryDelaysMs: [30, 30, 30],
    setupChecksAtStart: false,
    ...extra,
  });
  const api = async (h: Harness, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${h.base}/server${path}`, { method: 'POST', ...init, headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json', ...init.headers } });
    return { status: response.status, body: (await response.json()) as any };
  };
  const paidAndRefunded = async (h: Harness) => {
    const orderId = newOrderId();
    const token = await h.checkout(orderId, '5000');
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: payer, useWallet: false } })).status, 200);
    await h.waitFor(orderId, (view) => view.state === 'completed');
    const refund = await api(h, `/payments/${orderId}/refunds`, { body: JSON.stringify({ refundId: 'rf-1', amount: '1000' }) });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    await until('the refund completed', async () => (await api(h, `/payments/${orderId}`, { method: 'GET' })).body.refunds[0]?.state === 'completed');
    return orderId;
  };
  const typesFor = (orderId: string) => receiver.received.filter((item) => item.body.includes(orderId)).map((item) => verified(item).type);

  it('sends an endpoint that handles only payment.updated nothing else by default, a refund included', async () => {
    receiver.received.length = 0;
    const h = await startHarness(options());
    try {
      const orderId = await paidAndRefunded(h);
      await until('both payment notifications', () => typesFor(orderId).length >= 2);
      // Time for a refund notification and three retries of it, had one been queued.
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.deepEqual(typesFor(orderId), ['payment.updated', 'payment.updated']);
      assert.ok(receiver.received.every((item) => item.answered === 204), 'no request the handler refused');
      const details = await api(h, `/payments/${orderId}`, { method: 'GET' });
      assert.deepEqual(details.body.deliveries.pending, [], 'nothing waits for a retry');
      assert.ok(details.body.deliveries.log.every((attempt: any) => attempt.ok), 'no failed attempt in the log');
    } finally {
      await h.close();
    }
  });

  it('sends refund.updated to an endpoint that subscribed to it', async () => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const h = await startHarness(options({ merchantEvents: ['payment.updated', 'refund.updated'] }));
    try {
      const orderId = await paidAndRefunded(h);
      await until('the refund notification', () => typesFor(orderId).includes('refund.updated'));
      assert.deepEqual(typesFor(orderId).slice(0, 2), ['payment.updated', 'payment.updated']);
    } finally {
      receiver.answer = paymentsOnly;
      await h.close();
    }
  });

  it('sends no test.ping to an endpoint that did not list it, and says so; once, never retried, to one that did', async () => {
    receiver.received.length = 0;
    const unlisted = await startHarness(options());
    try {
      const refused = await api(unlisted, '/notifications/test');
      assert.equal(refused.status, 200);
      assert.equal(refused.body.ok, false);
      assert.match(refused.body.error, /^not sent: your endpoint does not take test\.ping \(MOMO_MERCHANT_EVENTS\).*add test\.ping to MOMO_MERCHANT_EVENTS/);
      assert.equal(receiver.received.length, 0, 'nothing reached the endpoint');
    } finally {
      await unlisted.close();
    }
    // Listed, to a handler that still fails on it: one attempt, its answer shown, no retry.
    const listed = await startHarness(options({ merchantEvents: ['payment.updated', 'test.ping'] }));
    try {
      const failed = await api(listed, '/notifications/test');
      assert.deepEqual([failed.body.ok, failed.body.status], [false, 500]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(receiver.received.map((item) => verified(item).type), ['test.ping'], 'one attempt, not retried');
    } finally {
      await listed.close();
    }
  });

  it("the console's Send test notification reaches an endpoint that answers it, and shows its answer", async () => {
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const h = await startHarness(options({ merchantEvents: ['payment.updated', 'refund.updated', 'test.ping'] }));
    try {
      const origin = new URL(h.base).origin;
      const open = (path: string, init: RequestInit = {}) => h.companion.fetch(new Request(`${h.base}/console${path}`, { redirect: 'manual', ...init }), { clientAddress: '45.33.7.1' });
      const signIn = await open('/sign-in', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ secret: serverSecret }).toString() });
      assert.equal(signIn.status, 303);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const { csrfToken } = (await (await open('/api/session', { headers: { cookie } })).json()) as { csrfToken: string };
      const sent = await open('/api/endpoint/test', { method: 'POST', headers: { cookie, origin, [csrfHeader]: csrfToken } });
      assert.equal(sent.status, 200);
      const body = (await sent.json()) as { ok: boolean; status: number };
      assert.deepEqual([body.ok, body.status], [true, 204]);
      assert.deepEqual(receiver.received.map((item) => verified(item).type), ['test.ping']);
    } finally {
      receiver.answer = paymentsOnly;
      await h.close();
    }
  });

  // Issue 40, finding 8: narrowing the list holds for what was queued before. A restart on the
  // same file store with refund.updated taken off, as a merchant would do it.
  it('after refund.updated is taken off the list, drops one still queued unsent, and redelivers with all only payment.updated', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-narrowed-events-'));
    const onFile = (merchantEvents: NonNullable<CompanionOptions['merchantEvents']>) => startHarness(options({ merchantEvents, store: createFileStore({ dataDir }) }));
    receiver.received.length = 0;
    receiver.answer = () => 204;
    const wide = await onFile(['payment.updated', 'refund.updated']);
    let acknowledged: string;
    let waiting: string;
    try {
      acknowledged = await paidAndRefunded(wide);
      await until('the refund notification, acknowledged', () => typesFor(acknowledged).includes('refund.updated'));
      receiver.answer = paymentsOnly;
      waiting = await paidAndRefunded(wide);
      await until('the refund notification, refused', () => typesFor(waiting).includes('refund.updated'));
    } finally {
      await wide.close();
    }
    try {
      const store = createFileStore({ dataDir });
      const queued = (await store.getByOrderId(waiting))?.deliveries ?? [];
      await store.close?.();
      assert.ok(queued.some((delivery) => delivery.refund?.refund.refundId === 'rf-1'), 'the refund notification waits for a retry');

      receiver.answer = () => 204;
      receiver.received.length = 0;
      const narrow = await onFile(['payment.updated']);
      try {
        await until('the waiting order has nothing queued', async () => (await api(narrow, `/payments/${waiting}`, { method: 'GET' })).body.deliveries.pending.length === 0);
        await new Promise((resolve) => setTimeout(resolve, 300)); // a retry would show by now
        assert.deepEqual(typesFor(waiting), [], 'the queued refund.updated was not sent');
        const again = await api(narrow, `/payments/${acknowledged}/redeliver?all=1`);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.ok(again.body.deliveries.length >= 2 && again.body.deliveries.every((delivery: { refundId?: string }) => delivery.refundId === undefined), JSON.stringify(again.body));
        assert.deepEqual([...new Set(typesFor(acknowledged))], ['payment.updated']);
      } finally {
        await narrow.close();
      }
    } finally {
      receiver.answer = paymentsOnly;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a type that does not exist and an empty list, saying what to write', () => {
    const base = { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', webhookSecrets: ['whsec_a'], publicUrl: 'http://127.0.0.1:8787/momo', allowedOrigins: ['http://127.0.0.1:8000'], allowInsecureLocalUrls: true, merchantWebhookUrl: receiver.url, merchantWebhookSecret: merchantSecret };
    const refuses = (merchantEvents: string[], message: RegExp) =>
      assert.throws(() => createCompanion({ ...base, merchantEvents } as CompanionOptions), (error: unknown) => error instanceof CompanionConfigError && message.test(error.message));
    refuses(['payment.updated', 'payment.refunded'], /"payment\.refunded", which is not a notification type: write some of payment\.updated, refund\.updated, test\.ping/);
    refuses([], /lists no notification type/);
    assert.deepEqual(merchantEventsFromEnv(undefined), ['payment.updated']);
    assert.deepEqual(merchantEventsFromEnv(' refund.updated , payment.updated,refund.updated '), ['refund.updated', 'payment.updated']);
    assert.throws(() => merchantEventsFromEnv('payment.updated;refund.updated'), /MOMO_MERCHANT_EVENTS lists "payment\.updated;refund\.updated"/);
    const env = { MOMO_BASE_URL: 'http://127.0.0.1:9', MOMO_API_KEY: 'k', MOMO_WEBHOOK_SECRETS: 'whsec_a', MOMO_PUBLIC_URL: 'http://127.0.0.1:8787/momo', MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_SERVER_SECRET: serverSecret, MOMO_MERCHANT_WEBHOOK_URL: receiver.url, MOMO_MERCHANT_WEBHOOK_SECRET: merchantSecret };
    assert.deepEqual(standaloneOptionsFromEnv({ ...env, MOMO_MERCHANT_EVENTS: 'payment.updated,test.ping' }).options.merchantEvents, ['payment.updated', 'test.ping']);
    assert.throws(() => standaloneOptionsFromEnv({ ...env, MOMO_MERCHANT_EVENTS: 'payment.update' }), /MOMO_MERCHANT_EVENTS lists "payment\.update", which is not a notification type/);
  });
});
