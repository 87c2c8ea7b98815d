/**
 * The routes a payer's page reaches (`page-routes/`): the checkout's JSON routes, the status
 * stream, the return route and the service's notification route, with their limits (per process,
 * or the shared store's when several processes share it) and the client address they count by.
 */
import type { Logger } from './log.js';
import type { CompanionOptions } from './options.js';
import type { NotificationAnswer } from './http-answers/notification-answers.js';
import { resolveClientAddress } from './page-routes/client-address.js';
import { createEventStreams } from './page-routes/event-stream.js';
import { createApp, type AppDeps } from './page-routes/page-routes.js';
import type { Discovery } from './payments/discovery.js';
import { claimLinkForPayIn, type CreateLinkCheckout } from './links/link-payments.js';
import type { Transitions } from './payments/transitions.js';
import type { ServiceClient } from './service-client/index.js';
import type { LimitBackend } from './stores/limit-backend.js';
import type { StatusHub } from './stores/status-hub.js';
import type { CheckoutStore } from './stores/store.js';
import type { MetricsRecorder } from './model/metrics-recorder.js';
import { companionDefaults, companionLimitDefaults } from './model/option-defaults.js';

export interface PayerRouteDeps {
  /** Only what the payer's routes read: their limits, the heartbeat, who may call, the client's address, and what a payment link's page shows. */
  options: Pick<CompanionOptions, 'limits' | 'heartbeatMs' | 'allowedOrigins' | 'clientAddress' | 'trustProxy' | 'shopName' | 'shopLogoUrl' | 'elementAssetsDir' | 'appReturnSchemes'>;
  store: CheckoutStore;
  hub: StatusHub;
  counted: LimitBackend;
  discovery: Discovery;
  service: ServiceClient;
  transitions: Transitions;
  acceptWebhook: (raw: Uint8Array) => Promise<NotificationAnswer>;
  mountPath: string;
  base: string;
  log: Logger;
  now: () => number;
  /** Counts each pay-in attempt sent (metrics/). */
  metrics?: MetricsRecorder;
  /** Creates a payer's checkout from a payment link (companion-actions.ts `checkoutsIn`). */
  createLinkCheckout: CreateLinkCheckout;
}

export function payerRoutes(deps: PayerRouteDeps) {
  const { options, store, hub, counted, discovery, service, transitions, acceptWebhook, mountPath, base, log, now } = deps;
  const limits = options.limits ?? {};
  const heartbeatMs = options.heartbeatMs ?? companionDefaults.heartbeatMs;
  const streamLifetimeMs = limits.streamLifetimeMs ?? companionLimitDefaults.streamLifetimeMs;
  const streams = createEventStreams(hub, {
    heartbeatMs,
    // A stream ends at the first heartbeat after its lifetime: its slot's lease needs no renewal.
    perOrder: counted.streamSlots(limits.streamsPerCheckout ?? companionLimitDefaults.streamsPerCheckout, streamLifetimeMs + 2 * heartbeatMs),
    total: limits.streams ?? companionLimitDefaults.streams,
    lifetimeMs: streamLifetimeMs,
  });
  const perAddress = counted.limiter('address', limits.perAddress ?? companionLimitDefaults.perAddress);
  const clientAddress: AppDeps['clientAddress'] = (request, context) => resolveClientAddress({ clientAddress: options.clientAddress, trustProxy: options.trustProxy }, request, context);
  const app = createApp({
    mountPath,
    // The companion's own origin too: a payment link's page is served there (page-routes/link-page-routes.ts).
    allowedOrigins: [...new Set([...options.allowedOrigins, new URL(base).origin])],
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
      beforePayIn: (checkout) => claimLinkForPayIn(store, checkout, now),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
    },
    acceptWebhook,
    log,
    now,
    limits: {
      perCheckout: counted.limiter('checkout', limits.perCheckout ?? companionLimitDefaults.perCheckout),
      perAddress,
      numbers: counted.numberGuard(limits.numbersPerCheckout ?? companionLimitDefaults.numbersPerCheckout),
    },
    clientAddress,
    linkPages: {
      store,
      now,
      mountPath,
      base,
      shop: { name: options.shopName ?? 'the shop', logoUrl: options.shopLogoUrl },
      discovery,
      createCheckout: deps.createLinkCheckout,
      perAddress,
      clientAddress,
      elementAssetsDir: options.elementAssetsDir,
      appReturnSchemes: options.appReturnSchemes ?? [],
      log,
    },
    markReturned: async (checkout) => {
      await transitions.update(checkout.orderId, (payment) => (payment && !payment.returned ? { ...payment, returned: true } : null));
    },
  });
  return { app, streams };
}
