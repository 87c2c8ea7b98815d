/**
 * What `npx momo-checkout serve` reads from the environment: the companion's usual `MOMO_*`
 * variables (companionOptionsFromEnv) plus the standalone mode's own.
 */
import { checkMerchantWebhookOptions } from '../deliveries/merchant-notifications.js';
import { merchantEventsFromEnv } from '../deliveries/merchant-events.js';
import { companionOptionsFromEnv } from '../options-from-env.js';
import { CompanionConfigError } from '../config-error.js';
import { type CompanionOptions } from '../options.js';
import { checkServerSecret } from '../server-api/server-secret.js';

export interface StandaloneEnvConfig {
  options: CompanionOptions;
  port: number;
  host: string;
  /** `MOMO_STOP_DELAY_MS`: how long a stopping process keeps accepting while `/readyz` says 503. */
  stopDelayMs: number;
  /** `MOMO_KEEP_ALIVE_TIMEOUT_MS`: how long an idle kept-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

const required = ['MOMO_BASE_URL', 'MOMO_API_KEY', 'MOMO_WEBHOOK_SECRETS', 'MOMO_PUBLIC_URL', 'MOMO_SERVER_SECRET'];

/**
 * Adds to companionOptionsFromEnv: `MOMO_SERVER_SECRET` (required: opens the server API),
 * `MOMO_MERCHANT_WEBHOOK_URL` + `MOMO_MERCHANT_WEBHOOK_SECRET` (optional, together: where payment
 * transitions are POSTed), `MOMO_MERCHANT_EVENTS` (optional, comma-separated: the types that endpoint
 * receives, default `payment.updated`; merchant-events.ts).
 * Throws a CompanionConfigError naming what to set.
 */
export function standaloneOptionsFromEnv(env: Record<string, string | undefined>): StandaloneEnvConfig {
  const missing = required.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new CompanionConfigError(
      `Set ${missing.join(', ')} in the environment (docs/backends.md explains each one; a server secret: openssl rand -hex 32).`,
    );
  }
  const { port, host, ...base } = companionOptionsFromEnv(env);
  const serverSecret = env.MOMO_SERVER_SECRET!.trim();
  checkServerSecret(serverSecret);
  const merchantWebhookUrl = env.MOMO_MERCHANT_WEBHOOK_URL?.trim() || undefined;
  const merchantWebhookSecret = env.MOMO_MERCHANT_WEBHOOK_SECRET?.trim() || undefined;
  checkMerchantWebhookOptions(merchantWebhookUrl, merchantWebhookSecret);
  const merchantEvents = merchantEventsFromEnv(env.MOMO_MERCHANT_EVENTS);
  const stopDelayMs = stopDelayFrom(env.MOMO_STOP_DELAY_MS);
  const keepAliveTimeoutMs = keepAliveTimeoutFrom(env.MOMO_KEEP_ALIVE_TIMEOUT_MS);
  return {
    options: {
      ...base,
      serverSecret,
      ...(merchantWebhookUrl ? { merchantWebhookUrl, merchantWebhookSecret, merchantEvents } : {}),
    },
    port,
    host,
    stopDelayMs,
    keepAliveTimeoutMs,
  };
}

/** The longest stop delay: a stop must still end within systemd's TimeoutStopSec (30 s in docs/deploy.md). */
const maxStopDelayMs = 20_000;

/**
 * `MOMO_STOP_DELAY_MS` (default 0): behind a load balancer that checks `/readyz` (Caddy's
 * `health_uri`, Kubernetes' readiness probe), a stopping process keeps accepting for this long
 * after `/readyz` turns 503, so the balancer sees it and sends no new work before the port closes.
 */
function stopDelayFrom(text: string | undefined): number {
  return millisecondsFrom('MOMO_STOP_DELAY_MS', text, {
    min: 0,
    max: maxStopDelayMs,
    fallback: 0,
    advice: "a little over your load balancer's health-check interval times its failure count (e.g. 3000), or leave it out (0).",
  });
}

/**
 * How long `serve` keeps an idle kept-alive connection open: Node's default, which docs/deploy.md's
 * nginx and Caddy files stay under (they close theirs after 4 s). The side that sends on a
 * connection must be the one that closes it idle: a proxy sending a notification just as this
 * server closes the connection loses it (the service sends it once).
 */
export const defaultKeepAliveTimeoutMs = 5_000;
/** Above the longest load balancers' idle timeouts (AWS ALB's is up to 4,000 s; 60 s by default). */
const maxKeepAliveTimeoutMs = 4_100_000;

/**
 * `MOMO_KEEP_ALIVE_TIMEOUT_MS` (default 5,000): behind a proxy whose idle timeout toward the
 * companion cannot be set under 5 s (an AWS Application Load Balancer's idle timeout, 60 s by
 * default, is also its connections' to the targets), set it above that proxy's (65000).
 */
function keepAliveTimeoutFrom(text: string | undefined): number {
  return millisecondsFrom('MOMO_KEEP_ALIVE_TIMEOUT_MS', text, {
    min: 1_000,
    max: maxKeepAliveTimeoutMs,
    fallback: defaultKeepAliveTimeoutMs,
    advice: "longer than the idle timeout of the proxy or load balancer in front (e.g. 65000 behind an AWS ALB's 60 s), or leave it out (5000).",
  });
}

/**
 * A whole number of milliseconds from `min` to `max` in the variable `name`, `fallback` when it is
 * unset; otherwise a CompanionConfigError with the range and `advice` (what to write instead).
 */
function millisecondsFrom(name: string, text: string | undefined, bounds: { min: number; max: number; fallback: number; advice: string }): number {
  const value = text?.trim();
  if (!value) return bounds.fallback;
  if (!/^\d+$/.test(value) || Number(value) < bounds.min || Number(value) > bounds.max) {
    throw new CompanionConfigError(`${name} is ${JSON.stringify(text)}: set a number of milliseconds from ${bounds.min} to ${bounds.max}, ${bounds.advice}`);
  }
  return Number(value);
}
