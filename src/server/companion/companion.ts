/**
 * `createCompanion`: the merchant-side server of momo-checkout. It holds the API key and is the
 * only thing that talks to the payment service; the page's element talks only to it.
 */
import type { PaymentView } from '../../contract/companion.js';
import { createLogger } from '../log.js';
import { createServiceClient, type ServiceClient } from '../service-client/index.js';
import { createDeliveryWorker } from './deliveries.js';
import { createNotificationInbox, type WebhookAnswer } from './inbox.js';
import { listPaymentSummaries, type PaymentListQuery, type PaymentSummary } from './payments-list.js';
import { createApp } from './app.js';
import { createCheckoutRecord, type CheckoutOrder, type CreatedCheckout } from './checkouts.js';
import { createDiscovery } from './discovery.js';
import { refuseUnpayable } from './payable.js';
import { createEventStreams } from './event-stream.js';
import { createFileStore } from './file-store.js';
import { storeRisk } from './store-from-env.js';
import { CompanionConfigError, type CompanionOptions } from './options.js';
import { runSetupChecks, type SetupCheck } from './setup-checks.js';
import { createMemoryStatusHub, type StatusHub } from './status-hub.js';
import { createTransitions } from './transitions.js';
import { isAllowedAuthorizationUrl, isLoopbackUrl, parseReturnUrl } from './urls.js';
import { resolveClientAddress, type RequestContext } from './client-address.js';
import { createMemoryLimits } from './rate-limit.js';
import { paymentView } from './view.js';
import { createMaintenance } from './maintenance.js';
import { defaultStaleMinutes } from './payments-list.js';
import { reportStale } from './stale-report.js';
import type { WebhookResult } from './webhook-handler.js';
import type { DeliverySink } from './records.js';
import { createMerchantWebhookSink } from './merchant-webhook.js';
import { createServerApi } from './server-api.js';

export interface Companion {
  /**
   * Every route: mount it where `publicUrl` points (see the adapters). `context.clientAddress`:
   * the socket's address, for the per-address limits (the adapters pass it).
   */
  fetch(request: Request, context?: RequestContext): Promise<Response>;
  /** Path of the webhook route (`<publicUrl path>/webhook`), for adapters with a fast path. */
  readonly webhookPath: string;
  /**
   * What the webhook route does, without a `Request`: verifies the raw body, answers, and applies
   * the notification after the answer. The node:http adapter calls it directly (the hot path).
   */
  acceptWebhook(rawBody: Uint8Array | string): Promise<WebhookAnswer>;
  /** Called by the merchant's server for an order; gives the token the page passes to the element. */
  createCheckout(order: CheckoutOrder): Promise<CreatedCheckout>;
  /**
   * For a merchant backend that receives the webhook itself and relays it: the RAW body text (or
   * bytes) exactly as received. Resolves once the notification is applied.
   */
  handleWebhook(rawBody: string | Uint8Array): Promise<WebhookResult>;
  /** The payment of an order as the page sees it, or null when none was started. */
  getPayment(orderId: string): Promise<PaymentView | null>;
  /**
   * Payments by state and age, e.g. `{ state: 'stale' }`: open payments unchanged for 15 minutes
   * or more, each with the sentence to send to the service's support (it alone can re-emit a lost
   * notification).
   */
  listPayments(query?: PaymentListQuery): Promise<PaymentSummary[]>;
  /** The service client this companion uses (for discovery calls of the merchant's own). */
  readonly service: ServiceClient;
  /** Open status streams (for monitoring). */
  openStreams(): number;
  /**
   * Runs the setup checks once (the service answers with this key, a webhook secret is set, the
   * public URL is https on a public address) and logs each failure loudly with its fix. Started in
   * the background when the companion is created unless `setupChecksAtStart: false`;
   * `formatSetupChecks(await momo.ready())` gives lines for a start banner.
   */
  ready(): Promise<SetupCheck[]>;
  /**
   * Applies notifications kept but not yet applied (after a crash) and delivers what is due. Runs
   * at creation and periodically by itself; resolves when the first round is done.
   */
  readonly resumed: Promise<void>;
  /** Waits (a few seconds at most) for work started after answering webhooks, closes the streams. */
  close(): Promise<void>;
}

/**
 * @example
 * const momo = createCompanion({
 *   baseUrl: process.env.MOMO_BASE_URL!, apiKey: process.env.MOMO_API_KEY!,
 *   webhookSecrets: ['whsec_...'], publicUrl: 'https://shop.example/momo',
 *   allowedOrigins: ['https://shop.example'],
 *   onPaymentUpdate: async ({ orderId, payment }) => { if (payment.state === 'completed') await fulfil(orderId); },
 * });
 * const { token } = await momo.createCheckout({ orderId: 'order-42', amount: '5000', currencyCode: 'XOF' });
 */
export function createCompanion(options: CompanionOptions & { hub?: StatusHub }): Companion {
  const now = options.now ?? Date.now;
  const log = options.log ?? createLogger();
  const insecureLocal = options.allowInsecureLocalUrls === true;
  const publicUrl = checkPublicUrl(options, insecureLocal);
  if (!Array.isArray(options.webhookSecrets)) throw new CompanionConfigError('webhookSecrets must be a list of whsec_ secrets.');
  if (options.mountPath !== undefined && options.mountPath !== '' && !/^\/[\w\-./]*$/.test(options.mountPath)) {
    throw new CompanionConfigError(`mountPath ${JSON.stringify(options.mountPath)} must start with "/", e.g. "/momo".`);
  }
  // The routes live under the path of `publicUrl` plus `mountPath`: the URL the service posts
  // webhooks to and the path this handler sees are then the same by construction.
  const mountPath = `${publicUrl.pathname.replace(/\/+$/, '')}${(options.mountPath ?? '').replace(/\/+$/, '')}`;
  const base = `${publicUrl.origin}${mountPath}`;
  const checkoutTtlMs = options.checkoutTtlMs ?? 30 * 60_000;
  const defaultReturnUrl = options.returnUrl === undefined ? null : parseReturnUrl(options.returnUrl);
  if (options.returnUrl !== undefined && defaultReturnUrl === null) {
    throw new CompanionConfigError(`returnUrl ${JSON.stringify(options.returnUrl)} is not an absolute http(s) URL with a host: give the merchant page payers come back to, e.g. https://shop.example/checkout.`);
  }
  const limits = options.limits ?? {};
  // The default keeps state in a file: the service sends each notification once, so state that
  // dies with the process loses payments. The memory store is for tests and demos, by name.
  const store = options.store ?? createFileStore({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), now });
  const risk = storeRisk(store.kind === 'memory' || store.kind === 'file' || store.kind === 'redis' ? store.kind : 'custom', options.env ?? process.env);
  if (risk) log.warn(`momo-checkout store: ${risk}`);
  if (store.kind === 'redis' && !options.hub) {
    log.warn('momo-checkout store: Redis store without a Redis status hub: a page whose stream another process holds hears of its payment only when it re-checks. Pass hub: await createRedisStatusHub({ url }).');
  }
  const hub = options.hub ?? createMemoryStatusHub();
  // A shared store counts the limits for every process on it; otherwise each process counts its own.
  const counted = store.limits ?? createMemoryLimits(now);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streamLifetimeMs = limits.streamLifetimeMs ?? 5 * 60_000;
  const streams = createEventStreams(hub, {
    heartbeatMs,
    // A stream ends at the first heartbeat after its lifetime: its slot's lease needs no renewal.
    perOrder: counted.streamSlots(limits.streamsPerCheckout ?? 5, streamLifetimeMs + 2 * heartbeatMs),
    total: limits.streams ?? 4_000,
    lifetimeMs: streamLifetimeMs,
  });
  const service = createServiceClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.serviceTimeoutMs ?? 15_000,
    log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const discovery = createDiscovery(service, { ttlMs: options.discoveryCacheTtlMs ?? 5 * 60_000, checkoutTtlMs, now, log });
  const background = new Set<Promise<unknown>>();
  const onPaymentUpdate = options.onPaymentUpdate;
  // Service mode: transitions also go to the merchant backend's endpoint, from the same queue.
  const merchantWebhook =
    options.merchantWebhookUrl !== undefined || options.merchantWebhookSecret !== undefined
      ? createMerchantWebhookSink({ url: options.merchantWebhookUrl ?? '', secret: options.merchantWebhookSecret ?? '', now, timeoutMs: options.deliveryTimeoutMs ?? 10_000 })
      : undefined;
  const sinks: DeliverySink[] = [...(onPaymentUpdate ? (['callback'] as const) : []), ...(merchantWebhook ? (['webhook'] as const) : [])];
  const deliveries = createDeliveryWorker({
    store,
    log,
    now,
    sinks: {
      ...(onPaymentUpdate
        ? {
            callback: async (delivery) => {
              await onPaymentUpdate(delivery.update);
              return { ok: true };
            },
          }
        : {}),
      ...(merchantWebhook ? { webhook: merchantWebhook } : {}),
    },
    ...(options.deliveryTimeoutMs !== undefined ? { timeoutMs: options.deliveryTimeoutMs } : {}),
    ...(options.deliveryRetryDelaysMs !== undefined ? { retryDelaysMs: options.deliveryRetryDelaysMs } : {}),
  });
  const transitions = createTransitions({ store, hub, now, sinks, onQueued: deliveries.kick });
  const webhook = {
    store,
    transitions,
    log,
    secrets: options.webhookSecrets,
    toleranceMs: options.webhookToleranceMs ?? 300_000,
    now,
    // Only https to a public host goes to a payer's browser; loopback http only for the local sandbox.
    isAllowedAuthorizationUrl: (url: string) =>
      isAllowedAuthorizationUrl(url, { allowInsecureLocal: insecureLocal, allowIdnHosts: options.allowIdnAuthorizationUrls === true }),
  };
  const inbox = createNotificationInbox({ ...webhook, background });
  const acceptWebhook = inbox.accept;
  const staleAfterMinutes = options.staleAfterMinutes ?? defaultStaleMinutes;
  const maintenance = createMaintenance({
    log,
    intervalMs: options.maintenanceIntervalMs ?? 30_000,
    tasks: {
      inbox: async () => {
        const resumed = await inbox.resume();
        if (resumed > 0) log.warn('notifications kept before a restart were applied now', { count: resumed });
      },
      deliveries: () => deliveries.runDue(),
      ...(options.onStale ? { stale: () => reportStale(store, options.onStale!, staleAfterMinutes, now) } : {}),
    },
  });
  deliveries.start();
  const app = createApp({
    mountPath,
    allowedOrigins: options.allowedOrigins,
    store,
    discovery,
    streams,
    payFlow: {
      service,
      store,
      discovery,
      transitions,
      log,
      webhookUrl: `${base}/webhook`,
      returnBase: (checkout) => `${base}/return/${checkout.returnId}`,
    },
    acceptWebhook,
    log,
    now,
    limits: {
      perCheckout: counted.limiter('checkout', limits.perCheckout ?? { burst: 20, perMinute: 20 }),
      perAddress: counted.limiter('address', limits.perAddress ?? { burst: 120, perMinute: 120 }),
      numbers: counted.numberGuard(limits.numbersPerCheckout ?? 5),
    },
    clientAddress: (request, context) => resolveClientAddress({ clientAddress: options.clientAddress, trustProxy: options.trustProxy }, request, context),
    markReturned: async (checkout) => {
      await transitions.update(checkout.orderId, (payment) => (payment && !payment.returned ? { ...payment, returned: true } : null));
    },
  });

  const createCheckout = (order: CheckoutOrder) =>
    createCheckoutRecord(store, order, {
      ttlMs: checkoutTtlMs,
      maxAttempts: options.maxAttempts ?? 3,
      now,
      defaultReturnUrl,
      checkPayable: (payable) => refuseUnpayable(payable, discovery, log),
    });
  const listPayments = (query: PaymentListQuery = {}) => listPaymentSummaries(store, query, now());
  // The server API (merchant backend → companion) exists only with a server secret.
  const serverApi =
    options.serverSecret !== undefined
      ? createServerApi({ mountPath, publicBase: base, secret: options.serverSecret, store, createCheckout, handleWebhook: inbox.handle, listPayments, log, now })
      : undefined;

  let checks: Promise<SetupCheck[]> | undefined;
  // A failed round is run again when asked after `setupRecheckMs` (the service was down at start,
  // a secret was added): readiness recovers without a restart. A passed round is kept.
  let recheckAfter = Number.POSITIVE_INFINITY;
  const ready = () => {
    if (checks && now() >= recheckAfter) checks = undefined;
    return (checks ??= runSetupChecks({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      webhookSecrets: options.webhookSecrets,
      publicUrl: base,
      allowLocalPublicUrl: insecureLocal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }).then((results) => {
      for (const check of results) {
        if (check.status === 'error') log.error(`momo-checkout setup: ${check.name}: ${check.message}`);
        else if (check.status === 'warning') log.warn(`momo-checkout setup: ${check.name}: ${check.message}`);
      }
      recheckAfter = results.some((check) => check.status === 'error') ? now() + (options.setupRecheckMs ?? 30_000) : Number.POSITIVE_INFINITY;
      return results;
    }));
  };
  // At start, in the background (listening is not delayed): a misconfiguration is said before the
  // first payer meets it, not at that payer's request.
  if (options.setupChecksAtStart !== false) {
    const started = ready().catch((error: unknown) => log.error('momo-checkout setup checks could not run', { error }));
    background.add(started);
    void started.finally(() => background.delete(started));
  }

  return {
    fetch: (request, context) => {
      if (serverApi?.handles(new URL(request.url).pathname)) return serverApi.fetch(request);
      return Promise.resolve(app.fetch(request, context));
    },
    ready,
    webhookPath: `${mountPath}/webhook`,
    acceptWebhook,
    createCheckout,
    handleWebhook: inbox.handle,
    async getPayment(orderId) {
      const checkout = await store.getByOrderId(orderId);
      return checkout ? paymentView(checkout) : null;
    },
    listPayments,
    resumed: maintenance.first,
    service,
    openStreams: () => streams.size(),
    async close() {
      await maintenance.stop();
      await deliveries.stop(options.closeTimeoutMs ?? 5_000);
      await Promise.allSettled([...background]);
      streams.close();
      await store.close?.();
    },
  };
}

function checkPublicUrl(options: CompanionOptions, insecureLocal: boolean): URL {
  let url: URL;
  try {
    url = new URL(options.publicUrl);
  } catch {
    throw new CompanionConfigError(`publicUrl ${JSON.stringify(options.publicUrl)} is not a URL: give where the service reaches this companion, e.g. https://shop.example/momo.`, 'INVALID_OPTION');
  }
  if (url.protocol !== 'https:' && !(insecureLocal && isLoopbackUrl(url.href))) {
    throw new CompanionConfigError(
      `publicUrl must be https: the service posts notifications only to https URLs on public addresses and drops any other. Against a local stand-in of the service (the sandbox) on this machine, set allowInsecureLocalUrls: true (MOMO_ALLOW_INSECURE_LOCAL_URLS=1).`,
      'INSECURE_PUBLIC_URL',
    );
  }
  return url;
}
