/**
 * The server API's routes, as OpenAPI route definitions over the schemas of
 * `server-api-schemas.ts`: the same objects route and validate requests (server-api.ts) and make
 * the OpenAPI 3.1 document (`serverApiDocument`, `npm run openapi` → docs/openapi.json).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { pingRoute, redeliverRoute } from './redelivery-schemas.js';
import { linkRoutes } from './link-schemas.js';
import { merchantNotificationKinds } from '../model/notification-kinds.js';
import { exportColumns } from '../payments/payments-export.js';
import { xlsxContentType } from '../payments/xlsx/xlsx-parts.js';
import { ErrorSchema, OrderIdPathParams, serverApiErrors as errors, jsonContent as json, serverApiSecurity as security } from './schema-parts.js';
import {
  CreateCheckoutRequestSchema,
  CreatedCheckoutSchema,
  MerchantWebhookEventSchema,
  PaymentDetailsSchema,
  PaymentListQuerySchema,
  PaymentListSchema,
  RefundRequestSchema,
  RefundUpdatedEventSchema,
  RefundViewSchema,
  RelayResultSchema,
  ServiceNotificationSchema,
  idempotencyKeyExample,
  merchantPayloadSchemas,
} from './server-api-schemas.js';

export const createCheckoutRoute = createRoute({
  method: 'post',
  path: '/checkouts',
  summary: 'Create (or get again) the checkout of an order',
  description:
    'Idempotent on `orderId`: the same order gives the same token (renewed if it expired). The same order id with another amount or currency is a 409, and so is an order id that a retry of another order was already sent to the service under. Give the token to the page that shows `<momo-checkout>`.',
  security,
  request: { body: { required: true, content: { 'application/json': { schema: CreateCheckoutRequestSchema } } } },
  responses: {
    200: json(CreatedCheckoutSchema, 'The checkout (new, or the one this order already has).'),
    ...errors,
    409: json(ErrorSchema, 'This order id already has a checkout for another amount or currency, or a retry of another order was sent under it.'),
  },
});

export const listPaymentsRoute = createRoute({
  method: 'get',
  path: '/payments',
  summary: 'List payments by state and age, or export them as CSV or xlsx',
  description:
    "e.g. `?state=stale`: payments still waiting for the service's word, each with what to do (only the service's support can re-emit a lost notification).\n\n" +
    'With `Accept: text/csv`: the export for the accountant, one row per payment created in [`from`, `to`) (default: this month so far, UTC), the oldest first, streamed. RFC 4180 in UTF-8 with a byte order mark; times in UTC ISO 8601; amounts as decimal numbers; text that a spreadsheet would run as a formula starts with an apostrophe. Add up `amount` only over the rows whose `state` is `completed`: the others brought no money. The store keeps a payment a week after its last change: export at least weekly. `state`, `olderThanMinutes` and `limit` do not apply.\n\n' +
    `With \`Accept: ${xlsxContentType}\`: the same rows as an xlsx workbook, a Totals sheet first (per currency, completed payments less completed refunds) then Payments, its times date cells in UTC and its amounts numbers in the currency's decimals.`,
  security,
  request: { query: PaymentListQuerySchema },
  responses: {
    200: {
      description: 'Payments, the oldest change first (JSON); or the export (CSV or xlsx), the oldest creation first.',
      content: {
        'application/json': { schema: PaymentListSchema },
        'text/csv': {
          schema: z.string().openapi({
            description: `Columns: ${exportColumns.map(([name]) => `\`${name}\``).join(', ')}. \`link_id\` is empty until payment links exist.`,
          }),
        },
        [xlsxContentType]: { schema: z.string().openapi({ format: 'binary', description: 'The xlsx workbook: sheets Totals and Payments (the CSV\'s columns).' }) },
      },
    },
    ...errors,
  },
});

export const getPaymentRoute = createRoute({
  method: 'get',
  path: '/payments/{orderId}',
  summary: 'Read the payment of an order, with its notification deliveries',
  security,
  request: { params: OrderIdPathParams },
  responses: {
    200: json(PaymentDetailsSchema, 'The checkout, its payment, and the deliveries to your endpoint (pending and the last attempts).'),
    ...errors,
    404: json(ErrorSchema, 'No checkout for this order id.'),
  },
});

/** Documented only: its handler reads the raw body itself (a JSON validator would re-serialise it). */
export const relayNotificationRoute = createRoute({
  method: 'post',
  path: '/notifications',
  summary: "Relay a payment service notification your backend received",
  description:
    "For a backend that is itself the pay-ins' webhook receiver: forward the body EXACTLY as received (raw bytes). The signature covers the text as written: a body parsed and re-serialised (numbers rewritten, keys reordered) is refused.",
  security,
  request: { body: { required: true, content: { 'application/json': { schema: ServiceNotificationSchema } } } },
  responses: {
    200: json(RelayResultSchema, 'Verified and applied (or a duplicate, or for no current payment).'),
    ...errors,
    413: json(ErrorSchema, 'Larger than 64 KB (answered with `Connection: close`).'),
    422: json(ErrorSchema, 'Not a genuine notification (signature, timestamp, shape): the message says which check failed.'),
  },
});

export const createRefundRoute = createRoute({
  method: 'post',
  path: '/payments/{orderId}/refunds',
  summary: 'Refund a completed payment, in part or in full, to the number that paid',
  description:
    'A pay-out (§4.3 of the service) to the number that paid, under a pay-out order id the companion derives. Off until `MOMO_REFUNDS=on`. The refunds not failed never add up to more than the amount paid. Idempotent on `refundId`: a repeat makes no new pay-out. The outcome comes as `refund.updated` notifications.',
  security,
  request: {
    params: OrderIdPathParams,
    body: { required: true, content: { 'application/json': { schema: RefundRequestSchema } } },
  },
  responses: {
    200: json(RefundViewSchema, 'The refund (new, or the one this refundId already names), in its state after the pay-out answer.'),
    ...errors,
    404: json(ErrorSchema, '`NOT_FOUND`: no checkout for this order id. `REFUNDS_DISABLED` is answered 403.'),
    409: json(ErrorSchema, '`NOT_REFUNDABLE` (no completed payment, or its amount differed), `REFUND_ID_REUSED` (this refundId with another body), `REFUND_IN_PROGRESS` (the same refund is being sent by another call).'),
    422: json(ErrorSchema, '`EXCEEDS_PAID_AMOUNT` (the message says what is left), `AMOUNT_INVALID` (more decimals than the currency has, not a positive decimal).'),
  },
});

const serverRoutes = [createCheckoutRoute, listPaymentsRoute, getPaymentRoute, relayNotificationRoute, createRefundRoute, redeliverRoute, pingRoute, ...linkRoutes];

/**
 * The OpenAPI 3.1 document of the server API and of the notifications it sends, for `serverUrl`
 * (`<publicUrl>/server`). The committed docs/openapi.json is this with the example URL.
 */
export function serverApiDocument(serverUrl = 'https://shop.example/momo/server'): Record<string, unknown> {
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerComponent('securitySchemes', 'serverSecret', {
    type: 'http',
    scheme: 'bearer',
    description: 'MOMO_SERVER_SECRET. Never give it to a browser: a page uses its checkout token.',
  });
  for (const route of serverRoutes) app.openAPIRegistry.registerPath(route);
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'payment.updated',
    summary: 'A payment changed state (sent to MOMO_MERCHANT_WEBHOOK_URL)',
    description:
      'Signed as Standard Webhooks says: `webhook-signature` is `v1,` + base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`)) where key is the base64-decoded part of MOMO_MERCHANT_WEBHOOK_SECRET after `whsec_`. Answer 2xx once recorded; anything else (or no answer in 10 s, or a redirect) is retried with backoff for 72 hours, in order per order. `webhook-id` is the same on every retry and never the same for two transitions (`data.idempotencyKey`).',
    request: {
      headers: z.object({
        'webhook-id': z.string().openapi({ example: idempotencyKeyExample }),
        'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt.', example: '1795000000' }),
        'webhook-signature': z.string().openapi({ example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
      }),
      body: { required: true, content: { 'application/json': { schema: MerchantWebhookEventSchema } } },
    },
    responses: { 200: { description: 'Recorded (any 2xx).' } },
  });
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'test.ping',
    summary: 'A test notification (POST /notifications/test), signed like payment.updated',
    description: 'Verify it like any notification and answer 2xx; it concerns no order: change nothing. `webhook-id` starts with `test.ping.`.',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z
              .object({ type: z.literal(merchantNotificationKinds.test.event), timestamp: z.string(), data: merchantPayloadSchemas.test })
              .openapi('TestPingEvent'),
          },
        },
      },
    },
    responses: { 200: { description: 'Received (any 2xx).' } },
  });
  app.openAPIRegistry.registerWebhook({
    method: 'post',
    path: 'refund.updated',
    summary: 'A refund changed state (sent to MOMO_MERCHANT_WEBHOOK_URL)',
    description: 'Signed, retried and ordered as `payment.updated`. One per change of a refund\'s state (`pending`, `unknown`, `completed`, `failed`).',
    request: { body: { required: true, content: { 'application/json': { schema: RefundUpdatedEventSchema } } } },
    responses: { 200: { description: 'Recorded (any 2xx).' } },
  });
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'momo-checkout server API',
      version: '1',
      description:
        "What a merchant backend in any language calls on the companion (`npx momo-checkout serve`), and the notifications it receives. Expose it only to your backend's network; every call carries `Authorization: Bearer <MOMO_SERVER_SECRET>` and no `Origin` header. Errors are `{ \"error\": { \"code\", \"message\" } }`.",
    },
    servers: [{ url: serverUrl, description: 'MOMO_PUBLIC_URL followed by /server' }],
  }) as unknown as Record<string, unknown>;
}
