/** What a merchant passes to `createCompanion`, and the same read from the environment for `npm start`. */
import type { Logger } from '../log.js';
import type { CheckoutStore } from './store.js';
import type { PaymentUpdate } from './events.js';
import type { PaymentSummary } from './payments-list.js';

export interface CompanionOptions {
  /** The payment service, e.g. `https://api.example.com` (or the sandbox's URL). */
  baseUrl: string;
  /** The organisation API key. Server-side only; never sent to a browser. */
  apiKey: string;
  /** `whsec_` secrets accepted on webhooks; several during a rotation (§5.8). */
  webhookSecrets: string[];
  /**
   * Where the service and browsers reach this companion, including its mount path, e.g.
   * `https://shop.example/momo`. Every pay-in's `webhookUrl` is `<publicUrl>/webhook` and its
   * `redirectUrls` are `<publicUrl>/return/...`. §6.4: must be https on a public address.
   */
  publicUrl: string;
  /**
   * Path the companion is mounted at, appended to `publicUrl` (default `''`): `publicUrl:
   * 'https://shop.example', mountPath: '/momo'` is the same as `publicUrl: 'https://shop.example/momo'`.
   */
  mountPath?: string;
  /** Origins of the pages allowed to call the browser routes, e.g. `['https://shop.example']`. */
  allowedOrigins: string[];
  /** Default page to send the payer back to after an authorisation page (per checkout overridable). */
  returnUrl?: string;
  /**
   * Called for each payment transition (never for a duplicate, stale, forged or regressing
   * notification), after the transition is stored and never in the payer's request. At least once:
   * while it throws or does not settle within `deliveryTimeoutMs`, it is called again with backoff,
   * also after a restart, and in order per order (a `completed` never before its `pending`). Use
   * `update.idempotencyKey` to skip an update you already handled.
   */
  onPaymentUpdate?: (update: PaymentUpdate) => void | Promise<void>;
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
  /** How often kept notifications, due deliveries and stuck payments are looked at. Default 30 s. */
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
  /** Webhook `_timestamp` tolerance. Default 5 minutes. */
  webhookToleranceMs?: number;
  /**
   * Only for the local sandbox: accept an `http://127.0.0.1` publicUrl and authorisation URLs on
   * loopback. The real service drops notifications to such URLs (§6.4).
   */
  allowInsecureLocalUrls?: boolean;
  /**
   * Run the setup checks (service answers with the key, secrets, public URL) in the background at
   * the first request and log what fails. Default true; `ready()` runs them on demand either way.
   */
  setupChecksAtStart?: boolean;
  log?: Logger;
  now?: () => number;
  /** fetch used to reach the service (tests, proxies). */
  fetch?: typeof fetch;
  /** Caps and rate limits of the page's routes (per process, in memory). See {@link CompanionLimits}. */
  limits?: CompanionLimits;
  /**
   * The payer's address, for the per-address limits, when the default does not fit (a proxy with
   * its own header, a platform that gives it another way). Return undefined when unknown: the
   * per-address limit is then skipped, the per-checkout ones still apply.
   */
  clientAddress?: (request: Request) => string | undefined;
  /**
   * How many proxies you run in front of the companion (a load balancer, nginx): the payer's
   * address is then read from `X-Forwarded-For`, that many entries from its right end (what your
   * own proxies appended). Default 0: `X-Forwarded-For` is ignored (a payer can write anything in
   * it) and the socket's address is used; a private or loopback socket address, which is what a
   * proxy looks like, is not limited per address.
   */
  trustProxy?: number;
  /**
   * Allow authorisation URLs whose host has `xn--` labels (internationalised names). Default
   * false: such a host can imitate another one letter for letter, and the payer is sent there.
   */
  allowIdnAuthorizationUrls?: boolean;
}

/**
 * Defaults fit a shop's normal traffic: a payer makes about ten page calls per payment. Every
 * limit is per process (in memory); several processes each apply their own.
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

export interface RateLimit {
  burst: number;
  perMinute: number;
}

export class CompanionConfigError extends Error {
  override name = 'CompanionConfigError';
}

/** What `companionOptionsFromEnv` reads: the companion's options plus where to listen. */
export type CompanionEnvConfig = Pick<CompanionOptions, 'baseUrl' | 'apiKey' | 'webhookSecrets' | 'publicUrl' | 'allowedOrigins'> & {
  /** `PORT`, default 3000. */
  port: number;
  /** `HOST`, default `127.0.0.1` (put a TLS-terminating proxy in front; §6.4 wants https). */
  host: string;
};

/**
 * Reads `MOMO_BASE_URL`, `MOMO_API_KEY`, `MOMO_WEBHOOK_SECRETS` (comma-separated),
 * `MOMO_PUBLIC_URL`, `MOMO_ALLOWED_ORIGINS` (comma-separated; default: the public URL's origin),
 * `PORT` (default 3000) and `HOST` (default 127.0.0.1).
 * Throws a `CompanionConfigError` naming every missing or malformed variable.
 *
 * @example
 * const { port, host, ...options } = companionOptionsFromEnv(process.env);
 * const momo = createCompanion(options);
 */
export function companionOptionsFromEnv(env: Record<string, string | undefined> = process.env): CompanionEnvConfig {
  const missing = ['MOMO_BASE_URL', 'MOMO_API_KEY', 'MOMO_WEBHOOK_SECRETS', 'MOMO_PUBLIC_URL'].filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new CompanionConfigError(`Set ${missing.join(', ')} in the environment (see the README, "For a merchant: the server side").`);
  }
  const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  const publicUrl = env.MOMO_PUBLIC_URL!.trim();
  let origin: string;
  try {
    origin = new URL(publicUrl).origin;
  } catch {
    throw new CompanionConfigError(`MOMO_PUBLIC_URL is not a URL: set it to where the service reaches this server, e.g. https://shop.example/momo.`);
  }
  const portText = env.PORT?.trim() || '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new CompanionConfigError(`PORT ${JSON.stringify(env.PORT)} is not a port number: set PORT to e.g. 3000.`);
  }
  const allowed = list(env.MOMO_ALLOWED_ORIGINS);
  return {
    baseUrl: env.MOMO_BASE_URL!.trim(),
    apiKey: env.MOMO_API_KEY!.trim(),
    webhookSecrets: list(env.MOMO_WEBHOOK_SECRETS),
    publicUrl,
    allowedOrigins: allowed.length > 0 ? allowed : [origin],
    port,
    host: env.HOST?.trim() || '127.0.0.1',
  };
}
