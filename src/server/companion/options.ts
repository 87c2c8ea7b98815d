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
  /** Default: in memory (one process). */
  store?: CheckoutStore;
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
