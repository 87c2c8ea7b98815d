/**
 * The routes for the merchant's own people and servers, beside the payer's: the server API
 * (merchant backend to companion), only with a server secret, and the operations console, with a
 * server secret or its own password. Both read and write the store behind a deadline
 * (`stores/store-guard.ts`), so an unusable store is a 503 in time, not a late 500.
 */
import type { Logger } from './log.js';
import type { CompanionOptions } from './options.js';
import type { companionActions } from './companion-actions.js';
import { createConsole, type ConsoleOptions } from './console/create-console.js';
import { signInLimits } from './console/console-routes.js';
import type { DeliveryWorker } from './deliveries/delivery-worker.js';
import { merchantEndpointActions, type DeliverySinkOptions } from './deliveries/delivery-sinks.js';
import { isLoopbackUrl } from './model/urls.js';
import { approvalQrView } from './page-routes/approval-qr.js';
import type { RelayOutcome } from './notifications/notification-types.js';
import { createServerApi } from './server-api/server-api.js';
import type { LimitBackend } from './stores/limit-backend.js';
import type { CheckoutStore } from './stores/store.js';

export interface OperatorRouteDeps {
  /** Only what the server API and the console read: the secret, the console's own options, the merchant endpoint's. */
  options: Pick<CompanionOptions, 'serverSecret'> & ConsoleOptions & DeliverySinkOptions;
  /** The store behind its deadline (`stores/store-guard.ts`), as the companion built it once. */
  apiStore: CheckoutStore;
  counted: LimitBackend;
  deliveries: Pick<DeliveryWorker, 'deliverNow'>;
  actions: ReturnType<typeof companionActions>;
  /** The notification receiver on a given store, resolving once applied. */
  relayNotification: (on: CheckoutStore) => (raw: Uint8Array) => Promise<RelayOutcome>;
  mountPath: string;
  base: string;
  staleAfterMinutes: number;
  log: Logger;
  now: () => number;
}

export function operatorRoutes(deps: OperatorRouteDeps) {
  const { options, actions, mountPath, base, log, now } = deps;
  const { apiStore } = deps;
  const refund = actions.refundsIn(apiStore);
  const endpoint = merchantEndpointActions(options, { store: apiStore, worker: deps.deliveries, now });
  const serverApi =
    options.serverSecret !== undefined
      ? createServerApi({
          mountPath,
          publicBase: base,
          secret: options.serverSecret,
          store: apiStore,
          createCheckout: actions.checkoutsIn(apiStore),
          relayNotification: deps.relayNotification(apiStore),
          listPayments: actions.paymentsIn(apiStore),
          refund,
          log,
          now,
          merchantEndpoint: endpoint,
          links: actions.linksIn(apiStore),
        })
      : undefined;
  const operationsConsole = createConsole(options, {
    mountPath,
    publicOrigin: new URL(base).origin,
    // Secure except over http on loopback, where the browser would drop a Secure cookie.
    secureCookie: !(base.startsWith('http:') && isLoopbackUrl(base)),
    store: apiStore,
    now,
    log,
    staleAfterMinutes: deps.staleAfterMinutes,
    signInLimiters: {
      perAddress: deps.counted.limiter('console-sign-in', signInLimits.perAddress),
      everywhere: deps.counted.limiter('console-sign-in-everywhere', signInLimits.everywhere),
    },
    refund,
    links: { actions: actions.linksIn(apiStore), qrOf: approvalQrView },
    ...endpoint,
  });
  return { serverApi, operationsConsole };
}
