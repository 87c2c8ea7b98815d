/** What a merchant passes to `createCompanion`, and the same read from the environment for `npm start`. */
import type { Logger } from '../log.js';
import type { CheckoutStore } from './store.js';
import type { PaymentUpdate } from './events.js';
import type { PaymentSummary } from './payments-list.js';
import { isLoopbackUrl } from './urls.js';

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
  /**
   * Opens the server API (`<publicUrl>/server/...`: create checkouts, read payments and their
   * deliveries, relay notifications) to `Authorization: Bearer <serverSecret>`. At least 32
   * characters, e.g. `openssl rand -hex 32`. Unset: the server API does not exist.
   */
  serverSecret?: string;
  /**
   * The merchant backend's endpoint for payment transitions (service mode): each one is POSTed
   * there, signed as Standard Webhooks says, and retried with backoff until a 2xx. Needs
   * `merchantWebhookSecret`.
   */
  merchantWebhookUrl?: string;
  /** `whsec_` + base64 of 24 to 64 random bytes: signs what goes to `merchantWebhookUrl`. */
  merchantWebhookSecret?: string;
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

export interface RateLimit {
  burst: number;
  perMinute: number;
}

/** Why a configuration was refused: what to fix, readable by code. */
export type CompanionConfigErrorCode =
  /** An option passed to `createCompanion` is missing or malformed. */
  | 'INVALID_OPTION'
  /** `publicUrl` is not https (or not loopback with `allowInsecureLocalUrls`): notifications would be lost. */
  | 'INSECURE_PUBLIC_URL'
  /** `companionOptionsFromEnv`: one or more variables are missing or malformed (see `problems`). */
  | 'ENVIRONMENT';

/** One missing or malformed environment variable, with what to write instead. */
export interface EnvironmentProblem {
  variable: string;
  message: string;
}

export class CompanionConfigError extends Error {
  override name = 'CompanionConfigError';
  constructor(
    message: string,
    readonly code: CompanionConfigErrorCode = 'INVALID_OPTION',
    /** For `ENVIRONMENT`: every problem found, all at once. */
    readonly problems: readonly EnvironmentProblem[] = [],
  ) {
    super(message);
  }
}

/** What `companionOptionsFromEnv` reads: the companion's options plus where to listen. */
export type CompanionEnvConfig = Pick<CompanionOptions, 'baseUrl' | 'apiKey' | 'webhookSecrets' | 'publicUrl' | 'allowedOrigins' | 'allowInsecureLocalUrls'> & {
  /** `PORT`, default 3000. */
  port: number;
  /** `HOST`, default `127.0.0.1` (put a TLS-terminating proxy in front: the service only posts to https). */
  host: string;
};

const required = ['MOMO_BASE_URL', 'MOMO_API_KEY', 'MOMO_WEBHOOK_SECRETS', 'MOMO_PUBLIC_URL'] as const;
const yes = new Set(['1', 'true', 'yes']);
const no = new Set(['', '0', 'false', 'no']);

/**
 * Reads `MOMO_BASE_URL`, `MOMO_API_KEY`, `MOMO_WEBHOOK_SECRETS` (comma-separated),
 * `MOMO_PUBLIC_URL`, `MOMO_ALLOWED_ORIGINS` (comma-separated; default: the public URL's origin),
 * `MOMO_ALLOW_INSECURE_LOCAL_URLS` (`1` for a local stand-in of the service on loopback http),
 * `PORT` (default 3000) and `HOST` (default 127.0.0.1).
 * Throws one `CompanionConfigError` (code `ENVIRONMENT`) naming every missing or malformed
 * variable at once, each with what to write instead (also in `error.problems`).
 *
 * @example
 * const { port, host, ...options } = companionOptionsFromEnv(process.env);
 * const momo = createCompanion(options);
 */
export function companionOptionsFromEnv(env: Record<string, string | undefined> = process.env): CompanionEnvConfig {
  const problems: EnvironmentProblem[] = [];
  const problem = (variable: string, message: string) => void problems.push({ variable, message });
  const value = (name: string) => env[name]?.trim() ?? '';
  const list = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

  const missing = required.filter((name) => !value(name));
  for (const name of missing) problem(name, `${name} is not set.`);

  const baseUrl = value('MOMO_BASE_URL');
  if (baseUrl) {
    const url = parseHttpUrl(baseUrl);
    if (!url) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL ${JSON.stringify(baseUrl)} is not an http(s) URL: set the payment service's address, e.g. https://api.example.com (or the sandbox's, e.g. http://127.0.0.1:4010).`);
    } else if (/\/v1\/?$/.test(url.pathname)) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL ends in /v1: give the service's root (${url.origin}${url.pathname.replace(/\/v1\/?$/, '')}); every call adds /v1/... itself.`);
    } else if (url.search || url.hash) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL has a query or fragment: give only the service's address, e.g. ${url.origin}.`);
    }
  }

  const insecureText = value('MOMO_ALLOW_INSECURE_LOCAL_URLS').toLowerCase();
  let allowInsecureLocalUrls = false;
  if (yes.has(insecureText)) allowInsecureLocalUrls = true;
  else if (!no.has(insecureText)) problem('MOMO_ALLOW_INSECURE_LOCAL_URLS', `MOMO_ALLOW_INSECURE_LOCAL_URLS is ${JSON.stringify(insecureText)}: set it to 1 (a local stand-in of the service) or leave it out.`);

  const publicText = value('MOMO_PUBLIC_URL');
  let origin: string | null = null;
  if (publicText) {
    const url = parseHttpUrl(publicText);
    if (!url) {
      problem('MOMO_PUBLIC_URL', `MOMO_PUBLIC_URL ${JSON.stringify(publicText)} is not an http(s) URL: set it to where the service reaches this server, e.g. https://shop.example/momo.`);
    } else {
      origin = url.origin;
      const loopback = isLoopbackUrl(url.href);
      if (allowInsecureLocalUrls && !loopback) {
        problem(
          'MOMO_ALLOW_INSECURE_LOCAL_URLS',
          `MOMO_ALLOW_INSECURE_LOCAL_URLS=1 is only for a local stand-in on this machine, but MOMO_PUBLIC_URL (${url.origin}) is not a loopback address: remove the variable.`,
        );
      } else if (url.protocol !== 'https:' && !allowInsecureLocalUrls) {
        problem(
          'MOMO_PUBLIC_URL',
          loopback
            ? `MOMO_PUBLIC_URL is http on this machine: the real service only posts notifications to https URLs on public addresses. Against a local stand-in (the sandbox), also set MOMO_ALLOW_INSECURE_LOCAL_URLS=1.`
            : `MOMO_PUBLIC_URL must be https: the service only posts notifications to https URLs on public addresses. Put the companion behind https, e.g. https://shop.example/momo.`,
        );
      }
    }
  }

  const secrets = list(value('MOMO_WEBHOOK_SECRETS'));
  if (value('MOMO_WEBHOOK_SECRETS') && secrets.length === 0) problem('MOMO_WEBHOOK_SECRETS', 'MOMO_WEBHOOK_SECRETS holds no secret: list the whsec_ secrets, separated by commas.');

  const allowed = list(value('MOMO_ALLOWED_ORIGINS'));
  for (const item of allowed) {
    const url = parseHttpUrl(item);
    if (!url || url.origin !== item.replace(/\/$/, '')) {
      problem('MOMO_ALLOWED_ORIGINS', `MOMO_ALLOWED_ORIGINS entry ${JSON.stringify(item)} is not an origin: write scheme, host and port only, e.g. https://shop.example.`);
    }
  }

  const portText = value('PORT') || '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problem('PORT', `PORT ${JSON.stringify(env.PORT)} is not a port number: set PORT to e.g. 3000.`);

  if (problems.length > 0) {
    const malformed = problems.filter((entry) => !missing.includes(entry.variable as (typeof required)[number]));
    const lines = [...(missing.length > 0 ? [`Set ${missing.join(', ')} in the environment.`] : []), ...malformed.map((entry) => entry.message)];
    throw new CompanionConfigError(
      `Fix the environment (docs/merchant-guide.md, "Configuration from the environment"):\n${lines.map((line) => `  - ${line}`).join('\n')}`,
      'ENVIRONMENT',
      problems,
    );
  }
  return {
    baseUrl,
    apiKey: value('MOMO_API_KEY'),
    webhookSecrets: secrets,
    publicUrl: publicText,
    allowedOrigins: allowed.length > 0 ? allowed.map((item) => item.replace(/\/$/, '')) : [origin!],
    ...(allowInsecureLocalUrls ? { allowInsecureLocalUrls: true } : {}),
    port,
    host: value('HOST') || '127.0.0.1',
  };
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
