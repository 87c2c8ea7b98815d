/**
 * `momo-checkout/server`: everything that runs on the merchant's server. Never imported by browser
 * code (test/architecture checks it).
 */
export { createCompanion } from './companion/companion.js';
export type { Companion } from './companion/companion.js';
export { companionOptionsFromEnv, CompanionConfigError } from './companion/options.js';
export type { CompanionOptions, CompanionEnvConfig, CompanionLimits, RateLimit, CompanionConfigErrorCode, EnvironmentProblem } from './companion/options.js';
export type { RequestContext } from './companion/client-address.js';
export { CheckoutError } from './companion/checkouts.js';
export type { CheckoutOrder, CreatedCheckout, CheckoutErrorCode } from './companion/checkouts.js';
export type { PaymentUpdate } from './companion/events.js';
export type { PaymentSummary, PaymentListQuery } from './companion/payments-list.js';
export { openStoreFromEnv, storeRisk } from './companion/store-from-env.js';
export type { OpenedStore, StoreKind } from './companion/store-from-env.js';
export type { WebhookResult } from './companion/webhook-handler.js';
export type { CheckoutStore, PaymentQuery } from './companion/store.js';
export type { LimitBackend, Limiter, NumberGuard, StreamSlots } from './companion/rate-limit.js';
export { transitionCheckout, StoreConflictError } from './companion/store.js';
export type { CheckoutRecord, PaymentRecord, OperatorRecord, DeliveryRecord, DeliveryAttempt, DeliverySink, InboxEntry } from './companion/records.js';
export { createMemoryStore, StoreFullError } from './companion/memory-store.js';
export type { MemoryStoreOptions } from './companion/memory-store.js';
export { createFileStore, FileStoreUnavailableError } from './companion/file-store.js';
export type { FileStoreOptions } from './companion/file-store.js';
export { createRedisStore } from './companion/redis-store.js';
export type { RedisStoreOptions } from './companion/redis-store.js';
export { RedisStoreUnavailableError } from './companion/redis-client.js';
export { serverApiDocument } from './companion/server-api-routes.js';
export { merchantWebhookBody, paymentUpdatedEvent } from './companion/merchant-webhook.js';
export type { MerchantWebhookEvent } from './companion/merchant-webhook.js';
export type { StatusHub } from './companion/status-hub.js';
export { createMemoryStatusHub } from './companion/status-hub.js';
export { createRedisStatusHub } from './companion/redis-status-hub.js';
export type { RedisStatusHub, RedisStatusHubOptions } from './companion/redis-status-hub.js';
export { runSetupChecks } from './companion/setup-checks.js';
export { formatSetupChecks } from './companion/setup-report.js';
export type { SetupCheck, SetupCheckOptions } from './companion/setup-checks.js';
export { checkPublicUrl, isPublicUnicast } from './companion/setup-checks.js';
export { toNodeHandler, serverTimeouts } from '../adapters/node-http.js';
export { expressMiddleware } from '../adapters/express.js';
export type { ExpressLikeMiddleware, ExpressLikeNext, ExpressLikeRequest } from '../adapters/express.js';
export { honoRoutes } from '../adapters/hono.js';
export type { FetchHandler } from '../adapters/node-http.js';
export { verifyWebhook, signWebhook, rawNumber, WebhookVerificationError } from './webhook/index.js';
export { createServiceClient } from './service-client/index.js';
export * from './service-client/errors.js';
export { createLogger } from './log.js';
export type { Logger } from './log.js';
export type { PaymentView, PaymentState, CompanionErrorCode } from '../contract/companion.js';
