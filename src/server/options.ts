/**
 * What a merchant passes to `createCompanion`: the option types only. The environment reader is
 * options-from-env.ts; the one configuration error is config-error.ts.
 */
import type { Logger } from './log.js';
import type { TrustProxy } from './page-routes/client-address.js';
import type { CheckoutStore } from './stores/store.js';
import type { RateLimit } from './stores/limit-backend.js';

export type { RateLimit };
import type { PaymentUpdate } from './model/payment-update.js';
import type { RefundUpdate } from './model/refund.js';
import type { MerchantEventType } from './model/notification-kinds.js';
import type { PaymentSummary } from './payments/payments-list.js';

export interface CompanionOptions {
  /** The payment service, e.g. `https://api.example.com` (or the sandbox's URL). */
  baseUrl: string;
  /** The organisation API key. Server-side only; never sent to a browser. */
  apiKey: string;
  /**
   * `whsec_` secrets accepted on webhooks. During a rotation list both the old and the new one: the
   * service signs with whichever is active until the old one is revoked in its dashboard.
   */
  webhookSecrets: string[];
  /**
   * Where the service and browsers reach this companion, including its mount path, e.g.
   * `https://shop.example/momo`. Every pay-in's `webhookUrl` is `<publicUrl>/webhook` and its
   * `redirectUrls` are `<publicUrl>/return/...`. Must be https on a public address: the service
   * posts notifications only there, once, and silently drops any other (http, private, loopback).
   */
  publicUrl: string;
  /**
   * Path the companion is mounted at, appended to `publicUrl` (default `''`): `publicUrl:
   * 'https://shop.example', mountPath: '/momo'` is the same as `publicUrl: 'https://shop.example/momo'`.
   */
  mountPath?: string;
  /** Origins of the pages allowed to call the browser routes, e.g. `['https://shop.example']`. */
  allowedOrigins: string[];
  /**
   * Default page to send the payer back to after an approval page (a `returnUrl` given to
   * `createCheckout` overrides it for that order). The payer lands there with
   * `momo_return=success|failure` and `momo_order=<orderId>` added to the query: neither is proof
   * of payment, only the signed notification is.
   */
  returnUrl?: string;
  /**
   * Called for each payment transition (never for a duplicate, stale, forged or regressing
   * notification), after the transition is stored and never in the payer's request. At least once:
   * while it throws or does not settle within `deliveryTimeoutMs`, it is called again with backoff,
   * also after a restart, and in order per order (a `completed` never before its `pending`). Use
   * `update.idempotencyKey` to skip an update you already handled (it is never reused, even by an
   * order id created again after its checkout expired).
   */
  onPaymentUpdate?: (update: PaymentUpdate) => void | Promise<void>;
  /**
   * Called for each change of a refund's state (`pending`, `unknown`, `completed`, `failed`), from
   * the same queue as `onPaymentUpdate`: at least once, in order per order; skip a repeated
   * `update.idempotencyKey`.
   */
  onRefundUpdate?: (update: RefundUpdate) => void | Promise<void>;
  /**
   * Allows refunds (`companion.refund`, `POST <publicUrl>/server/payments/{orderId}/refunds`):
   * a pay-out to the number that paid, executed at once by the service (no approval circuit with an
   * API key). Default false (`MOMO_REFUNDS=on`): they move money out of your balance.
   */
  refunds?: boolean;
  /** How long `onPaymentUpdate` may take before the call counts as failed and is retried. Default 10 s. */
  deliveryTimeoutMs?: number;
  /** Waits before each retry of a failed delivery (the last repeats). Default 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h; given up after 72 h. */
  deliveryRetryDelaysMs?: readonly number[];
  /**
   * Called once for each payment that stays open (no outcome) `staleAfterMinutes` after its last
   * change, or whose genuine notification this server refused: each comes with what to do.
   */
  onStale?: (payments: PaymentSummary[]) => void | Promise<void>;
  /** Default 15. */
  staleAfterMinutes?: number;
  /** How often kept notifications and stuck payments are looked at (deliveries are polled every second). Default 30 s. */
  maintenanceIntervalMs?: number;
  /** How long `close()` waits for deliveries under way. Default 5 s. */
  closeTimeoutMs?: number;
  /**
   * Where checkouts, payments, kept notifications and queued deliveries live. Default: the file
   * store (SQLite) in `dataDir`, which survives restarts and crashes. Several processes or
   * machines: `createRedisStore` (with `hub: createRedisStatusHub`). Tests and demos:
   * `createMemoryStore()`.
   */
  store?: CheckoutStore;
  /** The default file store's folder. Default `MOMO_DATA_DIR`, else `./.momo-checkout`. */
  dataDir?: string;
  /** The environment read for platform warnings (a file store on serverless). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Lifetime of a checkout token. Default 30 minutes. */
  checkoutTtlMs?: number;
  /** Lifetime of cached discovery answers (corridors per number, countries). Default 5 minutes. */
  discoveryCacheTtlMs?: number;
  /** Attempts per checkout (a new one only after a verified failure). Default 3. */
  maxAttempts?: number;
  /** Comment line sent on idle status streams. Default 15 s. */
  heartbeatMs?: number;
  /** Timeout of each call to the service. Default 15 s. */
  serviceTimeoutMs?: number;
  /**
   * How long the server API and the payer's routes wait for the store (a read, a write, a limit)
   * before answering `503` with `Retry-After` (`STORE_UNAVAILABLE` to a backend, `SERVICE_UNAVAILABLE`
   * to the page): a caller then tells "retry later" from a bug. Default 4 s.
   */
  storeTimeoutMs?: number;
  /** Webhook `_timestamp` tolerance. Default 5 minutes. */
  webhookToleranceMs?: number;
  /**
   * Only for a local stand-in of the service (the sandbox): accept an http publicUrl on a loopback
   * address (`127.0.0.1`, `localhost`, `[::1]`) and approval-page URLs on loopback. The real service
   * drops every notification to such URLs (it posts only to https on public addresses).
   * `MOMO_ALLOW_INSECURE_LOCAL_URLS=1` sets it from the environment.
   */
  allowInsecureLocalUrls?: boolean;
  /**
   * Run the setup checks (service answers with the key, secrets, public URL) in the background as
   * soon as the companion is created, and log what fails. Default true; `ready()` gives their
   * results (and runs them if they were turned off here).
   */
  setupChecksAtStart?: boolean;
  /** After a round of setup checks with a failure, `ready()` runs them again once this has passed. Default 30 s. */
  setupRecheckMs?: number;
  log?: Logger;
  now?: () => number;
  /** fetch used to reach the service (tests, proxies). */
  fetch?: typeof fetch;
  /** Caps and rate limits of the page's routes (shared by every process on a Redis store). See {@link CompanionLimits}. */
  limits?: CompanionLimits;
  /**
   * The payer's address, for the per-address limits, when the default does not fit (a proxy with
   * its own header, a platform that gives it another way). Return undefined when unknown: the
   * per-address limit is then skipped, the per-checkout ones still apply.
   */
  clientAddress?: (request: Request) => string | undefined;
  /**
   * Your proxies in front of the companion (a load balancer, nginx), so that the client's address
   * is read from `X-Forwarded-For`, and only from them (`MOMO_TRUST_PROXY` in standalone mode (`serve`)):
   * - their addresses or ranges (`['127.0.0.1', '10.0.0.0/8']`): the chain is walked from its
   *   right end past every one of them; a request that does not come from one of them keeps its
   *   socket's address, whatever it wrote in the header. The safest form;
   * - how many there are (`1`, at most 10): read only from a loopback or private socket (what a
   *   proxy of yours looks like); a public socket keeps its own address.
   * IPv4 addresses are written in four decimal parts (`10.1` is refused, not read as 10.0.0.1).
   * Default: `X-Forwarded-For` is ignored (a client can write anything in it) and the socket's
   * address is used; a private or loopback socket address, which is what a proxy looks like, is
   * not limited per address.
   */
  trustProxy?: TrustProxy;
  /**
   * Allow authorisation URLs whose host has `xn--` labels (internationalised names). Default
   * false: such a host can imitate another one letter for letter, and the payer is sent there.
   */
  allowIdnAuthorizationUrls?: boolean;
  /**
   * Opens the server API (`<publicUrl>/server/...`: create checkouts, read payments and their
   * deliveries, relay notifications) to `Authorization: Bearer <serverSecret>`. At least 32
   * characters, no whitespace, e.g. `openssl rand -hex 32`. Unset: the server API does not exist.
   */
  serverSecret?: string;
  /**
   * The merchant backend's endpoint for payment transitions (standalone mode): each one is POSTed
   * there, signed as Standard Webhooks says, and retried with backoff until a 2xx. Needs
   * `merchantWebhookSecret`.
   */
  merchantWebhookUrl?: string;
  /** `whsec_` + base64 of 24 to 64 random bytes: signs what goes to `merchantWebhookUrl`. */
  merchantWebhookSecret?: string;
  /**
   * The notification types `merchantWebhookUrl` receives (`MOMO_MERCHANT_EVENTS`, comma-separated).
   * Default `['payment.updated']`, the one type that existed when the endpoint was first documented:
   * add `'refund.updated'` once your handler reads refunds, and `'test.ping'` once it answers 2xx to
   * types it does not handle (then `momo-checkout ping` and the console's test notification send one,
   * once, when asked). A type not listed is never sent there.
   */
  merchantEvents?: MerchantEventType[];
  /**
   * A password for the operations console (`<publicUrl>/console`, docs/console.md), so that the
   * people who run the shop need not hold the server secret. At least 16 characters. The console
   * exists when a server secret or this password is set; either signs in.
   */
  consolePassword?: string;
  /** How long a console session lasts after sign-in. Default 8 hours. */
  consoleSessionTtlMs?: number;
  /**
   * The folder holding the console's built script, `momo-console.js`. Default: the package's
   * `dist/browser/` (built by `npm run build`).
   */
  consoleAssetsDir?: string;
  /**
   * The shop's name on its payment links' pages and in the card a chat app shows for them
   * (docs/merchant-guide.md, "Payment links"). Default "the shop".
   */
  shopName?: string;
  /** An https URL of the shop's logo, shown on its payment links' pages and their cards. */
  shopLogoUrl?: string;
  /**
   * The folder holding the element's built script-tag files and their `manifest.json`, served on
   * payment links' pages. Default: the package's `dist/browser/` (built by `npm run build`).
   */
  elementAssetsDir?: string;
  /**
   * The URL schemes of the shop's mobile apps (issue 54, docs/mobile-apps.md), e.g. `['shopapp']`:
   * the app page (`<publicUrl>/app/checkout`) sends the outcome to a `return=shopapp://...` address
   * only when its scheme is listed here, and only when the app's WebView has no script channel.
   * Default none: the page then tells the app only through its channel.
   */
  appReturnSchemes?: string[];
  /**
   * Opens `GET <publicUrl>/metrics` (Prometheus text format, docs/metrics.md) to
   * `Authorization: Bearer <metricsToken>`, so the monitoring need not hold the server secret. At
   * least 32 characters, no whitespace. The server secret is accepted too; with neither, metrics are off.
   */
  metricsToken?: string;
  /**
   * How often, at most, a scrape reads the store-wide gauges (stuck payments, operator rates,
   * backlogs: a read of the week's finished payments); scrapes in between get the last values.
   * Default 30,000 ms.
   */
  metricsStoreGaugesEveryMs?: number;
}

/**
 * Defaults fit a shop's normal traffic: a payer makes about ten page calls per payment. On a
 * shared store (Redis) every limit but `streams` holds for all the processes on it together; on
 * the memory or file store each process counts in its own memory.
 */
export interface CompanionLimits {
  /** Status streams open at once for one checkout (its tabs). Default 5; more are answered 429. */
  streamsPerCheckout?: number;
  /** Status streams open at once in this process. Default 4,000; more are answered 429 (the page polls instead). */
  streams?: number;
  /** A status stream ends after this and the page reconnects (resuming with Last-Event-ID). Default 5 minutes. */
  streamLifetimeMs?: number;
  /** Distinct phone numbers one checkout may look up, preview or pay with. Default 5. */
  numbersPerCheckout?: number;
  /** Lookup, preview and pay calls per checkout: a burst, then so many per minute. Default 20 then 20/min. */
  perCheckout?: RateLimit;
  /**
   * The same calls per client address (when known). Default 120 then 120/min: generous, because
   * mobile carriers put many payers behind one address (carrier-grade NAT).
   */
  perAddress?: RateLimit;
}
