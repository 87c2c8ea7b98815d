/**
 * `createCompanion`: the merchant-side server of momo-checkout. It holds the API key and is the
 * only thing that talks to the payment service; the page's element talks only to it.
 */
import type { PaymentView } from '../contract/companion.js';
import { createLogger } from './log.js';
import { createServiceClient, type ServiceClient } from './service-client/index.js';
import { createDeliveryWorker } from './deliveries/delivery-worker.js';
import { createNotificationReceiver } from './notifications/receive-notification.js';
import { answerToService, webhookBodyLimit, webhookResultOf, type NotificationAnswer, type WebhookResult } from './http-answers/notification-answers.js';
import { defaultStaleMinutes, listPaymentSummaries, type PaymentListQuery, type PaymentSummary } from './payments/payments-list.js';
import { createApp } from './page-routes/page-routes.js';
import { createCheckoutRecord, type CheckoutOrder, type CreatedCheckout } from './payments/checkouts.js';
import { createDiscovery } from './payments/discovery.js';
import { refuseUnpayable } from './payments/payable.js';
import { createEventStreams } from './page-routes/event-stream.js';
import { createFileStore } from './stores/sqlite/sqlite-store.js';
import { storeRisk } from './stores/store-from-env.js';
import { CompanionConfigError } from './config-error.js';
import { type CompanionOptions } from './options.js';
import type { SetupCheck } from './setup/setup-checks.js';
import { createSetupReadiness } from './setup/readiness.js';
import { resolvePublicAddress } from './public-address.js';
import { createMemoryStatusHub } from './stores/memory/memory-status-hub.js';
import type { StatusHub } from './stores/status-hub.js';
import { createTransitions } from './payments/transitions.js';
import { isAllowedAuthorizationUrl, isLoopbackUrl, parseReturnUrl } from './model/urls.js';
import { resolveClientAddress, type RequestContext } from './page-routes/client-address.js';
import { createMemoryLimits } from './stores/memory/memory-limits.js';
import { paymentView } from './model/payment-view.js';
import { createBackgroundWork } from './background-work.js';
import { createMaintenance } from './maintenance.js';
import { reportStale } from './payments/stale-report.js';
import { createDeliverySinks, merchantEndpointActions, sinksByEvent } from './deliveries/delivery-sinks.js';
import { createConsole } from './console/create-console.js';
import { signInLimits } from './console/console-routes.js';
import { createServerApi } from './server-api/server-api.js';
import { checkCompanionOptions } from './options-schema.js';
import { guardStore } from './stores/store-guard.js';
import type { CheckoutStore } from './stores/store.js';
import { refundPayment, type RefundDeps } from './refunds/refund-flow.js';
import { createRefundResumer } from './refunds/resume-refunds.js';
import type { RefundRequest } from './refunds/refund-rules.js';
import type { RefundView } from './model/refund.js';
import { defaultHeartbeatMs } from './model/heartbeat.js';

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
  acceptWebhook(rawBody: Uint8Array | string): Promise<NotificationAnswer>;
  /**
   * The webhook route's body limit and the answer to a larger body, for an adapter that reads the
   * body itself: it refuses a larger one unread, as the route does.
   */
  readonly webhookBodyLimit: { readonly maxBytes: number; readonly tooLarge: NotificationAnswer };
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
  /**
   * Refunds part or all of the order's completed payment to the number that paid (a pay-out of
   * the service), once `refunds: true`. Idempotent on `refundId`: the same call again makes no new
   * pay-out. Resolves with the refund after the service's answer; its outcome comes through
   * `onRefundUpdate` / `refund.updated`. Throws a `RefundRefusal` (code and sentence) when refused.
   *
   * @example
   * const refund = await momo.refund({ orderId: 'order-42', refundId: 'rf-42-1', amount: '2000' });
   */
  refund(request: RefundRequest & { orderId: string }): Promise<RefundView>;
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
   * Applies notifications kept but not yet applied (after a crash). Runs at creation and
   * periodically by itself; resolves when the first round is done. (What is due to the merchant
   * is delivered by the delivery worker's own poll, from creation on.)
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
  checkCompanionOptions(options);
  const now = options.now ?? Date.now;
  const log = options.log ?? createLogger();
  const { insecureLocal, mountPath, base } = resolvePublicAddress(options);
  const checkoutTtlMs = options.checkoutTtlMs ?? 30 * 60_000;
  const defaultReturnUrl = options.returnUrl === undefined ? null : parseReturnUrl(options.returnUrl);
  if (options.returnUrl !== undefined && defaultReturnUrl === null) {
    throw new CompanionConfigError(`returnUrl ${JSON.stringify(options.returnUrl)} is not an absolute http(s) URL with a host: give the merchant page payers come back to, e.g. https://shop.example/checkout.`);
  }
  const limits = options.limits ?? {};
  // The default keeps state in a file: the service sends each notification once, so state that
  // dies with the process loses payments. The memory store is for tests and demos, by name.
  const store = options.store ?? createFileStore({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), now });
  const risk = storeRisk(store.kind === 'memory' || store.kind === 'file' || store.kind === 'redis' || store.kind === 'postgres' ? store.kind : 'custom', options.env ?? process.env);
  if (risk) log.warn(`momo-checkout store: ${risk}`);
  if (store.kind === 'redis' && !options.hub) {
    log.warn('momo-checkout store: Redis store without a Redis status hub: a page whose stream another process holds hears of its payment only when it re-checks. Pass hub: await createRedisStatusHub({ url }).');
  }
  if (store.kind === 'postgres' && !options.hub) {
    log.warn('momo-checkout store: Postgres store without a Postgres status hub: a page whose stream another process holds hears of its payment only when it re-checks. Pass hub: await createPostgresStatusHub({ url }).');
  }
  const hub = options.hub ?? createMemoryStatusHub();
  // A shared store counts the limits for every process on it; otherwise each process counts its own.
  const counted = store.limits ?? createMemoryLimits(now);
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
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
  const background = createBackgroundWork();
  const sinks = createDeliverySinks(options, now);
  const deliveries = createDeliveryWorker({
    store,
    log,
    now,
    sinks,
    ...(options.deliveryTimeoutMs !== undefined ? { timeoutMs: options.deliveryTimeoutMs } : {}),
    ...(options.deliveryRetryDelaysMs !== undefined ? { retryDelaysMs: options.deliveryRetryDelaysMs } : {}),
  });
  // The endpoint gets only the types it subscribed to (merchantEvents, issue 36).
  const sinkNames = sinksByEvent(sinks, options);
  if (options.refunds === true && sinks.webhook && !sinkNames.refund.includes('webhook')) {
    log.warn('refunds are on but merchantEvents (MOMO_MERCHANT_EVENTS) leaves out refund.updated: your endpoint does not hear how a refund ends. Add refund.updated once its handler reads refunds, or read GET /server/payments/{orderId}.');
  }
  const transitions = createTransitions({ store, hub, now, sinks: sinkNames.payment, onQueued: deliveries.kick });
  const webhook = {
    store,
    transitions,
    refundSinks: sinkNames.refund,
    onRefundQueued: deliveries.kick,
    log,
    secrets: options.webhookSecrets,
    toleranceMs: options.webhookToleranceMs ?? 300_000,
    now,
    // Only https to a public host goes to a payer's browser; loopback http only for the local sandbox.
    isAllowedAuthorizationUrl: (url: string) =>
      isAllowedAuthorizationUrl(url, { allowInsecureLocal: insecureLocal, allowIdnHosts: options.allowIdnAuthorizationUrls === true }),
  };
  const notifications = createNotificationReceiver({ ...webhook, background });
  const acceptWebhook = async (raw: Uint8Array | string) => answerToService(await notifications.receive(raw));
  const staleAfterMinutes = options.staleAfterMinutes ?? defaultStaleMinutes;
  const maintenance = createMaintenance({
    log,
    intervalMs: options.maintenanceIntervalMs ?? 30_000,
    tasks: {
      inbox: async () => {
        const resumed = await notifications.resume();
        if (resumed > 0) log.warn('notifications kept before a restart were applied now', { count: resumed });
      },
      ...(options.onStale ? { stale: () => reportStale(store, options.onStale!, staleAfterMinutes, now) } : {}),
      // Refunds left `sending` by a stop (refunds/resume-refunds.ts); the deps are built below.
      refunds: () => resumeRefunds(),
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

  const checkoutsIn = (on: CheckoutStore) => (order: CheckoutOrder) =>
    createCheckoutRecord(on, order, {
      ttlMs: checkoutTtlMs,
      maxAttempts: options.maxAttempts ?? 3,
      now,
      defaultReturnUrl,
      checkPayable: (payable) => refuseUnpayable(payable, discovery, log),
    });
  const paymentsIn = (on: CheckoutStore) => (query: PaymentListQuery = {}) => listPaymentSummaries(on, query, now());
  const refundDepsOn = (on: CheckoutStore): RefundDeps => ({ service, store: on, log, now, sinks: sinkNames.refund, onQueued: deliveries.kick, webhookUrl: `${base}/webhook`, enabled: options.refunds === true });
  const refundsIn = (on: CheckoutStore) => {
    const deps = refundDepsOn(on);
    return (orderId: string, request: RefundRequest) => refundPayment(deps, orderId, request);
  };
  const refund = refundsIn(store);
  const resumeRefunds = createRefundResumer(refundDepsOn(store));
  const createCheckout = checkoutsIn(store);
  const listPayments = paymentsIn(store);
  // The server API (merchant backend → companion) exists only with a server secret. It reads and
  // writes through a deadline, so an unusable store is a 503 in time, not a late 500.
  const apiStore = guardStore(store, options.storeTimeoutMs ?? 4_000);
  const endpoint = merchantEndpointActions(options, { store: apiStore, worker: deliveries, now });
  const serverApi =
    options.serverSecret !== undefined
      ? createServerApi({
          mountPath,
          publicBase: base,
          secret: options.serverSecret,
          store: apiStore,
          createCheckout: checkoutsIn(apiStore),
          relayNotification: createNotificationReceiver({ ...webhook, store: apiStore, background }).receiveAndApply,
          listPayments: paymentsIn(apiStore),
          refund: refundsIn(apiStore),
          log,
          now,
          merchantEndpoint: endpoint,
        })
      : undefined;
  // The operations console: with a server secret (standalone mode, or library mode that set one) or its own password.
  const operationsConsole = createConsole(options, {
    mountPath,
    publicOrigin: new URL(base).origin,
    // Secure except over http on loopback, where the browser would drop a Secure cookie.
    secureCookie: !(base.startsWith('http:') && isLoopbackUrl(base)),
    store: apiStore,
    now,
    log,
    staleAfterMinutes,
    signInLimiters: {
      perAddress: counted.limiter('console-sign-in', signInLimits.perAddress),
      everywhere: counted.limiter('console-sign-in-everywhere', signInLimits.everywhere),
    },
    refund: refundsIn(apiStore),
    ...endpoint,
  });

  const ready = createSetupReadiness({
    checks: {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      webhookSecrets: options.webhookSecrets,
      publicUrl: base,
      allowLocalPublicUrl: insecureLocal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
    log,
    now,
    recheckMs: options.setupRecheckMs ?? 30_000,
  });
  // At start, in the background (listening is not delayed): a misconfiguration is said before the
  // first payer meets it, not at that payer's request.
  if (options.setupChecksAtStart !== false) {
    void background.track(ready().catch((error: unknown) => log.error('momo-checkout setup checks could not run', { error })));
  }

  return {
    fetch: (request, context) => {
      const pathname = new URL(request.url).pathname;
      if (serverApi?.handles(pathname)) return serverApi.fetch(request);
      if (operationsConsole?.handles(pathname)) {
        const address = resolveClientAddress({ clientAddress: options.clientAddress, trustProxy: options.trustProxy }, request, context);
        return operationsConsole.fetch(request, address);
      }
      return Promise.resolve(app.fetch(request, context));
    },
    ready,
    webhookPath: `${mountPath}/webhook`,
    acceptWebhook,
    createCheckout,
    webhookBodyLimit,
    handleWebhook: async (raw) => webhookResultOf(await notifications.receiveAndApply(raw)),
    async getPayment(orderId) {
      const checkout = await store.getByOrderId(orderId);
      return checkout ? paymentView(checkout) : null;
    },
    listPayments,
    refund: ({ orderId, ...request }) => refund(orderId, request),
    resumed: maintenance.first,
    service,
    openStreams: () => streams.size(),
    async close() {
      await maintenance.stop();
      await deliveries.stop(options.closeTimeoutMs ?? 5_000);
      await background.settled();
      streams.close();
      await store.close?.();
    },
  };
}
