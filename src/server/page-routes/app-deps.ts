/**
 * What the page routes are given (the composition root builds it), and what every route file of
 * this part shares: the Hono environment, the browser body limit, the no-store header.
 */
import type { Logger } from '../log.js';
import type { RequestContext } from './client-address.js';
import type { Discovery } from '../payments/discovery.js';
import type { EventStreams } from './event-stream.js';
import type { Limiter, NumberGuard } from '../stores/limit-backend.js';
import type { PayFlowDeps } from '../payments/pay-flow.js';
import type { CheckoutRecord } from '../model/records.js';
import type { CheckoutStore } from '../stores/store.js';
import type { CreateLinkCheckout } from '../links/link-payments.js';
import type { LinkPageShop } from './link-page-html.js';
import type { NotificationAnswer } from '../http-answers/notification-answers.js';

export interface AppDeps {
  mountPath: string;
  allowedOrigins: readonly string[];
  store: CheckoutStore;
  discovery: Discovery;
  streams: EventStreams;
  payFlow: PayFlowDeps;
  log: Logger;
  now: () => number;
  /** Verifies a notification, answers, and applies it after the answer. */
  acceptWebhook: (raw: Uint8Array) => Promise<NotificationAnswer>;
  markReturned: (checkout: CheckoutRecord) => Promise<void>;
  /** Limits of the routes that reach the service (lookup, preview, pay), per process or shared (stores/limit-backend.ts). */
  limits: { perCheckout: Limiter; perAddress: Limiter; numbers: NumberGuard };
  /** The payer's address (see client-address.ts), or undefined when it is not known. */
  clientAddress: (request: Request, context: RequestContext | undefined) => string | undefined;
  /** Payment links' pages (link-page-routes.ts); absent: none are served. */
  linkPages?: LinkPageDeps;
}

// Bindings: what the adapter passes beside the request (`app.fetch(request, context)`).
export type Env = { Bindings: RequestContext | undefined; Variables: { checkout: CheckoutRecord } };

export const maxBrowserBody = 8 * 1024;

export const noStore = { 'cache-control': 'no-store' };

/** What a payment link's pages need (link-page-routes.ts). */
export interface LinkPageDeps {
  store: CheckoutStore;
  now: () => number;
  mountPath: string;
  /** The companion's public base URL (`<origin><mountPath>`): the link's URL and the element's endpoint. */
  base: string;
  shop: LinkPageShop;
  discovery: Pick<Discovery, 'currencyFacts'>;
  createCheckout: CreateLinkCheckout;
  perAddress: Limiter;
  clientAddress: (request: Request, context: RequestContext | undefined) => string | undefined;
  /** The folder of the element's built files (`elementAssetsDir`). */
  elementAssetsDir?: string | undefined;
  /** The mobile apps' return schemes (`appReturnSchemes`): the app page follows no other `return=`. */
  appReturnSchemes: readonly string[];
  /** Where a page that cannot be made says why (missing element files, a failure). */
  log: Logger;
}
