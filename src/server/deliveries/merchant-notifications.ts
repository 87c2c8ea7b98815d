/**
 * The merchant endpoint's delivery sink (`endpointSink`, standalone mode): each payment transition POSTed to the merchant
 * backend's endpoint, signed as the Standard Webhooks specification says, so any language checks
 * it with one HMAC-SHA256 (docs/backends.md). The delivery worker (delivery-worker.ts) calls it from the
 * durable queue and retries it with backoff; this file only makes one attempt and says how it went.
 */
import { certificateAdvice } from '../../contract/tls-failure.js';
import { Webhook } from 'standardwebhooks';
import type { DeliverFunction, DeliveryResult } from './delivery-worker.js';
import { CompanionConfigError } from '../config-error.js';
import { merchantNotificationKinds, type MerchantNotificationKind, type MerchantNotificationPayloads } from '../model/notification-kinds.js';
import { notificationOf, type StoredNotification, type DeliveryRecord } from '../model/records.js';
import { randomId } from '../tokens.js';
import { companionDefaults } from '../model/option-defaults.js';

/** The `type` of a payment's transition (Standard Webhooks payload structure). */
export const paymentUpdatedEvent = merchantNotificationKinds.payment.event;
/** The `type` of a refund's change (refunds/). */
export const refundUpdatedEvent = merchantNotificationKinds.refund.event;

/** What the merchant's endpoint receives as the body: one shape per kind (model/notification-kinds.ts). */
export type MerchantWebhookEvent = {
  [K in MerchantNotificationKind]: {
    type: (typeof merchantNotificationKinds)[K]['event'];
    /** ISO 8601 time of the transition (the same on every retry; the `webhook-timestamp` header is the attempt's). */
    timestamp: string;
    data: MerchantNotificationPayloads[K];
  };
}[MerchantNotificationKind];

export interface MerchantWebhookOptions {
  url: string;
  /** `whsec_` + base64 of the key. */
  secret: string;
  /** Default 10 s: an attempt without an answer by then is failed and retried later. */
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** The notification type a queued delivery is sent as. */
export function merchantEventOf(delivery: StoredNotification): MerchantWebhookEvent['type'] {
  return merchantNotificationKinds[notificationOf(delivery).kind].event;
}

/** The body of a delivery: built from the stored record, so every retry sends the same bytes. */
export function merchantWebhookBody(delivery: DeliveryRecord): string {
  const { kind, payload } = notificationOf(delivery);
  return merchantEventBody(kind, delivery.createdAt, payload);
}

/** The body every kind is sent with, queued or not: its table entry's `type`, the time `at`, its payload. */
function merchantEventBody<K extends MerchantNotificationKind>(kind: K, at: number, data: MerchantNotificationPayloads[K]): string {
  // Key order is the wire format: type, timestamp, data.
  const event = { type: merchantNotificationKinds[kind].event, timestamp: new Date(at).toISOString(), data } as MerchantWebhookEvent;
  return JSON.stringify(event);
}

/** Throws a CompanionConfigError saying what to fix in the URL or the secret. */
export function checkMerchantWebhookOptions(url: string | undefined, secret: string | undefined): void {
  if (url === undefined && secret === undefined) return;
  if (!url || !secret) {
    throw new CompanionConfigError('merchantWebhookUrl and merchantWebhookSecret go together (MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET): set both, or neither.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CompanionConfigError(`merchantWebhookUrl ${JSON.stringify(url)} is not a URL: give your backend's endpoint, e.g. https://shop.example/momo-events.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new CompanionConfigError('merchantWebhookUrl must be an http(s) URL of your backend.');
  }
  if (parsed.username || parsed.password) {
    throw new CompanionConfigError('merchantWebhookUrl must not carry a user name or password: the signature (webhook-signature) is what authenticates each notification.');
  }
  const key = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : '';
  let bytes = 0;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(key)) {
    try {
      bytes = atob(key).length;
    } catch {
      bytes = 0;
    }
  }
  if (bytes < 24 || bytes > 64) {
    throw new CompanionConfigError(
      'merchantWebhookSecret must be "whsec_" followed by the base64 of 24 to 64 random bytes (Standard Webhooks). ' +
        'Generate one with: echo "whsec_$(openssl rand -base64 32)"',
    );
  }
}

/**
 * @example
 * const deliver = createMerchantNotificationSink({ url: 'https://shop.example/momo-events', secret: 'whsec_...' });
 * const result = await deliver(delivery); // { ok: true, status: 204 } or { ok: false, error: 'HTTP 500' }
 */
export function createMerchantNotificationSink(options: MerchantWebhookOptions): DeliverFunction {
  checkMerchantWebhookOptions(options.url, options.secret);
  const post = createSignedPost(options);
  return async (delivery) => post(delivery.id, merchantWebhookBody(delivery));
}

/** The `type` of the event `ping` sends: a handler answers 2xx and does nothing else. */
export const testPingEvent = merchantNotificationKinds.test.event;

/** What a test notification found: the endpoint's answer (or why none) and how long it took. */
export type PingResult = DeliveryResult & { webhookId: string; durationMs: number };

/**
 * Sends one signed `test.ping` to the merchant's endpoint, once (never queued, never retried): it
 * checks the URL, the secret and the handler's answer without waiting for a payment.
 *
 * @example
 * const ping = createMerchantPing({ url: 'https://shop.example/momo-events', secret: 'whsec_...' });
 * await ping(); // { ok: true, status: 204, durationMs: 12, webhookId: 'test.ping.…' }
 */
export function createMerchantPing(options: MerchantWebhookOptions): () => Promise<PingResult> {
  checkMerchantWebhookOptions(options.url, options.secret);
  const post = createSignedPost(options);
  const now = options.now ?? Date.now;
  return async () => {
    const webhookId = `${testPingEvent}.${randomId(12)}`;
    const startedAt = performance.now();
    const result = await post(webhookId, merchantEventBody('test', now(), { webhookId }));
    return { ...result, webhookId, durationMs: Math.round(performance.now() - startedAt) };
  };
}

/** One signed POST of `body` under `webhook-id` `id`, and how the endpoint answered. */
function createSignedPost(options: MerchantWebhookOptions): (id: string, body: string) => Promise<DeliveryResult> {
  const signer = new Webhook(options.secret);
  const timeoutMs = options.timeoutMs ?? companionDefaults.deliveryTimeoutMs;
  const now = options.now ?? Date.now;
  const send = options.fetch ?? fetch;

  return async (id, body): Promise<DeliveryResult> => {
    const at = new Date(now());
    let response: Response;
    try {
      response = await send(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'momo-checkout',
          // The delivery id (the update's idempotency key) is the same on every retry and unique
          // for ever: the receiver's idempotency key, as the specification intends.
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signer.sign(id, at, body),
        },
        body,
        // A redirect is a failure, not followed: the signature was made for this URL's receiver.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { ok: false, error: describeFailure(error, timeoutMs) };
    }
    // Read (and drop) the answer so the connection is reused; an endless body is cut by the timeout.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      return {
        ok: false,
        status: response.status,
        error: `redirected (HTTP ${response.status}${location ? ` to ${location.slice(0, 200)}` : ''}); redirects are not followed: set the final URL in merchantWebhookUrl`,
      };
    }
    return { ok: false, status: response.status, error: `HTTP ${response.status}: answer 2xx once the update is recorded` };
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const advice = certificateAdvice(error, 'the companion');
  if (advice) return `could not reach the endpoint: ${advice}`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `could not reach the endpoint: ${cause.code}`;
  if (cause?.message) return `could not reach the endpoint: ${cause.message}`;
  return `could not reach the endpoint: ${error instanceof Error ? error.message : String(error)}`;
}
