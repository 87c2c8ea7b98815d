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
import type { PaymentListQuery, PaymentSummary } from './payments/payments-list.js';
import { type CheckoutOrder, type CreatedCheckout } from './payments/checkouts.js';
import { createDiscovery } from './payments/discovery.js';
import { CompanionConfigError } from './config-error.js';
import type { CompanionOptions } from './options.js';
import type { SetupCheck } from './setup/setup-checks.js';
import { createSetupReadiness } from './setup/readiness.js';
import { resolvePublicAddress } from './public-address.js';
import type { StatusHub } from './stores/status-hub.js';
import { createTransitions } from './payments/transitions.js';
import { authorizationUrlRefusal, parseReturnUrl } from './model/urls.js';
import { resolveClientAddress, type RequestContext } from './page-routes/client-address.js';
import { paymentView } from './model/payment-view.js';
import { endpointSink } from './model/records.js';
import { createBackgroundWork } from './background-work.js';
import { createMaintenance } from './maintenance.js';
import { reportStale } from './payments/stale-report.js';
import { createDeliverySinks, sinksByKind, stillSubscribed } from './deliveries/delivery-sinks.js';
import { checkCompanionOptions } from './options-schema.js';
import { companionStorage } from './companion-storage.js';
import { companionActions } from './companion-actions.js';
import { operatorRoutes } from './operator-routes.js';
import { payerRoutes } from './payer-routes.js';
import { createRefundResumer } from './refunds/resume-refunds.js';
import type { RefundRequest } from './refunds/refund-rules.js';
import type { RefundView } from './model/refund.js';
import { createCompanionMetrics } from './metrics/create-metrics.js';
import { guardLimits, guardStore, storeDeadline } from './stores/store-guard.js';
import { companionDefaults } from './model/option-defaults.js';
import { settleLinkPayment } from './links/link-payments.js';

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
  const checkoutTtlMs = options.checkoutTtlMs ?? companionDefaults.checkoutTtlMs;
  const defaultReturnUrl = options.returnUrl === undefined ? null : parseReturnUrl(options.returnUrl);
  if (options.returnUrl !== undefined && defaultReturnUrl === null) {
    throw new CompanionConfigError(`returnUrl ${JSON.stringify(options.returnUrl)} is not an absolute http(s) URL with a host: give the merchant page payers come back to, e.g. https://shop.example/checkout.`);
  }
  const { store, hub, counted } = companionStorage(options, log, now);
  // GET <publicUrl>/metrics, and the recorder the parts below count through (docs/metrics.md).
  // What operators and payers read (server API, console, metrics, the page's routes) goes through a
  // deadline: an unusable store is a 503 in time, its outage logged once.
  const deadline = storeDeadline(options.storeTimeoutMs ?? companionDefaults.storeTimeoutMs, log);
  const apiStore = guardStore(store, deadline);
  const staleAfterMinutes = options.staleAfterMinutes ?? companionDefaults.staleAfterMinutes;
  const metrics = createCompanionMetrics({ metricsToken: options.metricsToken, serverSecret: options.serverSecret, mountPath, store: apiStore, now, staleAfterMinutes, openStreams: () => streams.size(), log, storeGaugesEveryMs: options.metricsStoreGaugesEveryMs });
  const service = createServiceClient({
    metrics: metrics.recorder,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.serviceTimeoutMs ?? companionDefaults.serviceTimeoutMs,
    log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const discovery = createDiscovery(service, { ttlMs: options.discoveryCacheTtlMs ?? companionDefaults.discoveryCacheTtlMs, checkoutTtlMs, now, log });
  const background = createBackgroundWork();
  const sinks = createDeliverySinks(options, now);
  const deliveries = createDeliveryWorker({
    store,
    log,
    now,
    sinks,
    metrics: metrics.recorder,
    subscribed: stillSubscribed(options),
    ...(options.deliveryTimeoutMs !== undefined ? { timeoutMs: options.deliveryTimeoutMs } : {}),
    ...(options.deliveryRetryDelaysMs !== undefined ? { retryDelaysMs: options.deliveryRetryDelaysMs } : {}),
  });
  // The endpoint gets only the types it subscribed to (merchantEvents, issue 36).
  const sinkNames = sinksByKind(sinks, options);
  if (options.refunds === true && sinks[endpointSink] && !sinkNames.refund.includes(endpointSink)) {
    log.warn('refunds are on but merchantEvents (MOMO_MERCHANT_EVENTS) leaves out refund.updated: your endpoint does not hear how a refund ends. Add refund.updated once its handler reads refunds, or read GET /server/payments/{orderId}.');
  }
  const transitions = createTransitions({
    store,
    hub,
    now,
    sinks: sinkNames.payment,
    onQueued: deliveries.kick,
    metrics: metrics.recorder,
    // A failure here leaves the link to settle from the payment's record at its next claim (links/link-payments.ts).
    afterChange: (checkout) => settleLinkPayment(store, checkout, now()).catch((error: unknown) => log.warn('payment link not told how its payment ended; its next claim settles it', { orderId: checkout.orderId, error })),
  });
  const webhook = {
    metrics: metrics.recorder,
    store,
    transitions,
    sinks: sinkNames,
    onRefundQueued: deliveries.kick,
    log,
    secrets: options.webhookSecrets,
    toleranceMs: options.webhookToleranceMs ?? companionDefaults.webhookToleranceMs,
    now,
    // Only https to a public host goes to a payer's browser; loopback http only for the local sandbox.
    authorizationUrlRefusal: (url: string) =>
      authorizationUrlRefusal(url, { allowInsecureLocal: insecureLocal, allowIdnHosts: options.allowIdnAuthorizationUrls === true }),
  };
  const notifications = createNotificationReceiver({ ...webhook, background });
  const acceptWebhook = async (raw: Uint8Array | string) => answerToService(await notifications.receive(raw));
  const maintenance = createMaintenance({
    log,
    intervalMs: options.maintenanceIntervalMs ?? companionDefaults.maintenanceIntervalMs,
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

  const actions = companionActions({ options, discovery, service, log, now, checkoutTtlMs, defaultReturnUrl, base, sinks: sinkNames, onRefundQueued: deliveries.kick });
  const { app, streams } = payerRoutes({ options, store: apiStore, hub, counted: guardLimits(counted, deadline), discovery, service, transitions, acceptWebhook, mountPath, base, log, now, metrics: metrics.recorder, createLinkCheckout: actions.checkoutsIn(apiStore) });
  const { checkoutsIn, paymentsIn, refundsIn, refundDepsOn } = actions;
  const refund = refundsIn(store);
  const resumeRefunds = createRefundResumer(refundDepsOn(store));
  const createCheckout = checkoutsIn(store);
  const listPayments = paymentsIn(store);
  const { serverApi, operationsConsole } = operatorRoutes({
    options,
    apiStore,
    counted,
    deliveries,
    actions,
    relayNotification: (on) => createNotificationReceiver({ ...webhook, store: on, background }).receiveAndApply,
    mountPath,
    base,
    staleAfterMinutes,
    log,
    now,
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
    recheckMs: options.setupRecheckMs ?? companionDefaults.setupRecheckMs,
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
      if (metrics.route.handles(pathname)) return metrics.route.fetch(request);
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
      await deliveries.stop(options.closeTimeoutMs ?? companionDefaults.closeTimeoutMs);
      await background.settled();
      streams.close();
      await store.close?.();
    },
  };
}
