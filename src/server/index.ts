/**
 * `momo-checkout/server`: everything that runs on the merchant's server. Never imported by browser
 * code (test/architecture checks it).
 */
export { createCompanion } from './companion.js';
export type { Companion } from './companion.js';
export { companionOptionsFromEnv, CompanionConfigError } from './options.js';
export type { CompanionOptions, CompanionEnvConfig, CompanionLimits, RateLimit, CompanionConfigErrorCode, EnvironmentProblem } from './options.js';
export type { RequestContext } from './page-routes/client-address.js';
export { CheckoutError } from './payments/checkouts.js';
export type { CheckoutOrder, CreatedCheckout, CheckoutErrorCode } from './payments/checkouts.js';
export type { PaymentUpdate } from './model/payment-update.js';
export type { PaymentSummary, PaymentListQuery } from './payments/payments-list.js';
export { openStoreFromEnv, storeRisk } from './stores/store-from-env.js';
export type { OpenedStore, StoreKind } from './stores/store-from-env.js';
export type { WebhookResult } from './notifications/notification-route.js';
export type { CheckoutStore, PaymentQuery } from './stores/store.js';
export { transitionCheckout, StoreConflictError } from './stores/store.js';
export type { CheckoutRecord, PaymentRecord, OperatorRecord, DeliveryRecord, DeliveryAttempt, DeliverySink, InboxEntry } from './model/records.js';
export { createMemoryStore, StoreFullError } from './stores/memory-store.js';
export type { MemoryStoreOptions } from './stores/memory-store.js';
export { createFileStore, FileStoreUnavailableError } from './stores/sqlite/sqlite-store.js';
export type { FileStoreOptions } from './stores/sqlite/sqlite-store.js';
export { createRedisStore } from './stores/redis/redis-store.js';
export type { RedisStoreOptions } from './stores/redis/redis-store.js';
export { RedisStoreUnavailableError } from './stores/redis/redis-client.js';
export { serverApiDocument } from './server-api/server-api-schemas.js';
export { merchantWebhookBody, paymentUpdatedEvent } from './deliveries/merchant-notifications.js';
export type { MerchantWebhookEvent } from './deliveries/merchant-notifications.js';
export type { StatusHub } from './status/status-hub.js';
export { createMemoryStatusHub } from './status/status-hub.js';
export { createRedisStatusHub } from './stores/redis/redis-status-hub.js';
export type { RedisStatusHub, RedisStatusHubOptions } from './stores/redis/redis-status-hub.js';
export { runSetupChecks } from './setup/setup-checks.js';
export { formatSetupChecks } from './setup/setup-report.js';
export type { SetupCheck, SetupCheckOptions } from './setup/setup-checks.js';
export { checkPublicUrl, isPublicUnicast } from './setup/setup-checks.js';
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
