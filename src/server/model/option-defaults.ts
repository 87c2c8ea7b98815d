/**
 * The companion's defaults, each written once: the value an option takes when the shop leaves it
 * out (options.ts documents them in words). Every builder that falls back reads it here, so a
 * default changed here changes everywhere it applies: the delivery timeout's 10 s, for one, was
 * typed in four files (the worker, the endpoint's sink, its test ping, the signed POST).
 *
 * In the foundation (model/) because the parts that fall back sit at every rank, from the stores'
 * listings to the composition root.
 */
import { DEFAULT_TOLERANCE_MS } from '../../contract/webhook-signature/verify.js';
import { defaultHeartbeatMs } from './heartbeat.js';

const minute = 60_000;

export const companionDefaults = {
  /** How long one merchant notification (a callback or the endpoint's POST) may take before it is retried. */
  deliveryTimeoutMs: 10_000,
  /** How long `close()` waits for deliveries under way. */
  closeTimeoutMs: 5_000,
  /** A payment open this long with no news is stale (onStale, `GET /payments?state=stale`). */
  staleAfterMinutes: 15,
  /** How often kept notifications and stuck payments are looked at. */
  maintenanceIntervalMs: 30_000,
  /** Lifetime of a checkout token. */
  checkoutTtlMs: 30 * minute,
  /** Lifetime of cached discovery answers. */
  discoveryCacheTtlMs: 5 * minute,
  /** Attempts per checkout (a new one only after a verified failure). */
  maxAttempts: 3,
  /** The status stream's heartbeat (model/heartbeat.ts says why 15 s). */
  heartbeatMs: defaultHeartbeatMs,
  /** Each call to the payment service. */
  serviceTimeoutMs: 15_000,
  /** How long the routes wait for the store before answering 503 (schema-parts.ts says "4 s"). */
  storeTimeoutMs: 4_000,
  /** A notification's `_timestamp` tolerance, the webhook-signature module's own default. */
  webhookToleranceMs: DEFAULT_TOLERANCE_MS,
  /** After a round of setup checks with a failure, `ready()` runs them again once this has passed. */
  setupRecheckMs: 30_000,
} as const;

/** `CompanionLimits`' defaults: a shop's normal traffic (options.ts). */
export const companionLimitDefaults = {
  streamsPerCheckout: 5,
  streams: 4_000,
  streamLifetimeMs: 5 * minute,
  numbersPerCheckout: 5,
  perCheckout: { burst: 20, perMinute: 20 },
  perAddress: { burst: 120, perMinute: 120 },
} as const;

/** A listing of payments asked without a limit gives this many (stores/store.ts `PaymentQuery.limit`). */
export const defaultPaymentListLimit = 100;
