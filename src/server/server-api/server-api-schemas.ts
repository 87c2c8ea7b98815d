/**
 * The server API's contract (merchant backend → companion): zod schemas of every request and
 * answer, and the route definitions. The same objects validate requests (server-api.ts) and
 * generate the OpenAPI 3.1 document (`serverApiDocument`, `npm run openapi` → docs/openapi.json),
 * so the document cannot drift from what the server does.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { PaymentState, PaymentView } from '../../contract/companion.js';
import type { PaymentUpdate } from '../model/payment-update.js';
import type { PaymentSummary } from '../payments/payments-list.js';
import { pingRoute, redeliverRoute } from './redelivery-schemas.js';
import { ErrorSchema, paymentStates, serverApiErrors as errors, jsonContent as json, serverApiSecurity as security } from './schema-parts.js';

export { ErrorSchema };
import { refundStates, type RefundUpdate, type RefundView } from '../model/refund.js';
import { deprecatedAttemptFields, deprecatedPendingFields } from './deprecated-fields.js';

/** Where the server API lives under the companion's mount path. */
export const serverApiPrefix = '/server';



export const CreateCheckoutRequestSchema = z
  .object({
    orderId: z.string({ error: 'must be a string' }).openapi({
      description: 'Your order id: 1 to 100 letters, digits, "-", "_", "." or ":". The reconciliation key; the same order id always gives the same checkout.',
      example: 'order-42',
    }),
    amount: z.string({ error: 'must be a decimal string such as "5000" or "12.50", never a JSON number (floats lose digits)' }).openapi({
      description: 'Decimal string in the major unit of the currency ("5000" XOF is five thousand francs). Never rounded.',
      example: '5000',
    }),
    currencyCode: z.string({ error: 'must be a string such as "XOF"' }).openapi({ example: 'XOF' }),
    returnUrl: z.string().optional().openapi({ description: 'Your page the payer comes back to after an approval page (default: the companion\'s).', example: 'https://shop.example/checkout/42' }),
    maxAttempts: z.number().int().min(1).max(10).optional().openapi({ description: 'Attempts allowed (a new one only after a verified failure). Default 3.', example: 3 }),
  })
  .openapi('CreateCheckoutRequest');

export const CreatedCheckoutSchema = z
  .object({
    token: z.string().openapi({ description: 'Give it to the page: `<momo-checkout token="...">`. Unguessable; opens only this checkout\'s page routes.' }),
    orderId: z.string(),
    expiresAt: z.string().openapi({ description: 'ISO 8601: until when the payer can start paying with this token.', example: '2026-11-23T16:30:00.000Z' }),
  })
  .openapi('CreatedCheckout');

export const PaymentViewSchema = z
  .object({
    state: z.enum(paymentStates),
    version: z.number().int().openapi({ description: 'Increases by one at each transition.' }),
    orderId: z.string(),
    phoneNumberMasked: z.string().openapi({ example: '+229••••••••01' }),
    operator: z.object({ code: z.string(), name: z.string(), logoUrl: z.string() }).nullable(),
    workflow: z.string().nullable(),
    instructions: z.string().nullable(),
    authorizationUrl: z.string().nullable(),
    returned: z.boolean(),
    canRetry: z.boolean(),
    updatedAt: z.string(),
  })
  .openapi('PaymentView');

export const PaymentSummarySchema = z
  .object({
    orderId: z.string(),
    serviceOrderId: z.string().openapi({ description: 'The order id the payment service knows this attempt by (the order id for the first attempt; after a failed one, the first `<orderId>-a<N>` no other order holds, usually `<orderId>-a2`).' }),
    transactionId: z.string().nullable().openapi({ description: "The service's id from its pay-in answer; what its support needs to re-emit a notification." }),
    amount: z.string(),
    currencyCode: z.string(),
    phoneNumberMasked: z.string(),
    state: z.enum(paymentStates),
    updatedAt: z.string(),
    ageMinutes: z.number().int(),
    refusedNotification: z.object({ status: z.string(), sentAt: z.string() }).nullable(),
    refund: z
      .object({ refundId: z.string(), state: z.enum(refundStates) })
      .nullable()
      .openapi({ description: "Set when what is stuck is a refund of this payment: then `serviceOrderId`, `transactionId`, `amount`, the number and the times are the refund's pay-out's." }),
    action: z.string().openapi({ description: 'What to do about this payment (or refund), in a sentence.' }),
  })
  .openapi('PaymentSummary');

/** An idempotency key (`webhook-id`) as transitions.ts makes them: `<orderId>.<lifeId>.<version>`. */
const idempotencyKeyExample = 'order-42.Xq3v9TbN0aZk.2';
const idempotencyKeyMeaning =
  'Unique for ever: `<orderId>.<lifeId>.<version>`, the life id random per creation of the checkout, so an order id created again after its checkout expired never repeats a key (read it as an opaque string).';

const PendingDeliverySchema = z
  .object({
    webhookId: z.string().openapi({ description: `The \`webhook-id\` of this transition (the same on every retry). ${idempotencyKeyMeaning}`, example: idempotencyKeyExample }),
    sink: z.enum(['callback', 'webhook']),
    // Not `state`: beside `attempts` it read as the delivery's own state ("completed", 0 attempts).
    reportedState: z
      .enum([...paymentStates, ...refundStates])
      .openapi({ description: 'The state this notification reports (that of its transition: the payment\'s, or with `refundId` the refund\'s), not the state of the delivery.' }),
    refundId: z.string().optional().openapi({ description: 'Set when this delivery is a `refund.updated`.' }),
    attempts: z.number().int().openapi({ description: 'Tries made so far, none acknowledged (0: not tried yet).' }),
    createdAt: z.string(),
    nextAttemptAt: z.string().openapi({ description: 'ISO 8601: the next try.' }),
    ...deprecatedPendingFields(z.enum([...paymentStates, ...refundStates])),
  })
  .openapi('PendingDelivery');

const DeliveryAttemptSchema = z
  .object({
    webhookId: z.string().openapi({ description: 'The `webhook-id` of the notification tried.', example: idempotencyKeyExample }),
    sink: z.enum(['callback', 'webhook']),
    at: z.string(),
    ok: z.boolean(),
    status: z.number().int().optional().openapi({ description: "HTTP status of your endpoint's answer, when there was one." }),
    error: z.string().optional(),
    ...deprecatedAttemptFields,
  })
  .openapi('DeliveryAttempt');

const RefundViewSchema = z
  .object({
    refundId: z.string(),
    payoutOrderId: z.string().openapi({ description: 'The order id the pay-out was sent under (`<orderId>-r<N>`): quote it, or `transactionId`, to support.', example: 'order-42-r1' }),
    amount: z.string(),
    currencyCode: z.string(),
    reason: z.string().nullable(),
    state: z.enum(refundStates).openapi({
      description:
        '`sending`: written, its answer not yet written (repeat the call to resume); `unknown`: the answer was lost, listed for support (repeating the call posts the same pay-out id again, never a second one); `pending`: accepted, awaiting the service\'s notification; `completed`; `failed` (no longer counts against the amount paid).',
    }),
    phoneNumberMasked: z.string().openapi({ description: 'The number that paid, masked: a refund goes to it only.', example: '+229••••••••01' }),
    transactionId: z.string().nullable(),
    failureCategory: z.string().nullable().openapi({ example: 'INSUFFICIENT_FUNDS' }),
    failureReason: z.string().nullable(),
    newBalance: z.string().nullable().openapi({ description: 'The balance the pay-out answer reported, as a decimal string.' }),
    amountMismatch: z.boolean().openapi({ description: "The service's notification named another amount: check with support." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Refund');

export const PaymentDetailsSchema = z
  .object({
    orderId: z.string(),
    amount: z.string(),
    currencyCode: z.string(),
    expiresAt: z.string().openapi({ description: "ISO 8601: the checkout token's expiry." }),
    payment: PaymentViewSchema.nullable().openapi({ description: 'null until the payer starts paying.' }),
    summary: PaymentSummarySchema.nullable(),
    deliveries: z.object({
      pending: z.array(PendingDeliverySchema).openapi({ description: 'Transitions not yet acknowledged by your endpoint, oldest first.' }),
      log: z.array(DeliveryAttemptSchema).openapi({ description: 'The last delivery attempts, newest last.' }),
    }),
    refunds: z.array(RefundViewSchema).openapi({ description: 'The refunds of this payment, oldest first.' }),
  })
  .openapi('PaymentDetails');

export const PaymentListQuerySchema = z.object({
  state: z
    .enum([...paymentStates, 'stale'])
    .optional()
    .openapi({ description: '`stale`: open payments with no news for `olderThanMinutes` (default 15), or whose genuine notification was refused; or one state.', example: 'stale' }),
  olderThanMinutes: z.coerce.number().int().min(0).optional().openapi({ description: 'Only payments unchanged for at least this many minutes.', example: 15 }),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: 'Default 100.' }),
});

export const PaymentListSchema = z.object({ payments: z.array(PaymentSummarySchema) }).openapi('PaymentList');

export const RelayResultSchema = z
  .object({
    outcome: z.enum(['applied', 'duplicate', 'ignored']).openapi({ description: '`ignored`: verified but for no current payment, or changing nothing.' }),
    orderId: z.string().optional(),
    state: z.enum(paymentStates).optional(),
  })
  .openapi('RelayResult');

/** The payment service's notification (its §6.2), as received: described, never re-serialised. */
const ServiceNotificationSchema = z
  .object({
    phoneNumber: z.string(),
    amount: z.number(),
    orderId: z.string(),
    status: z.string(),
    _nonce: z.string(),
    _timestamp: z.number().int(),
    signature: z.string(),
  })
  .loose()
  .openapi('ServiceNotification', { description: "The payment service's notification body, byte for byte as your endpoint received it." });

const PaymentUpdateSchema = z
  .object({
    orderId: z.string(),
    idempotencyKey: z.string().openapi({ description: `The same as \`webhook-id\`: skip an update whose key you already handled. ${idempotencyKeyMeaning}`, example: idempotencyKeyExample }),
    amount: z.string(),
    currencyCode: z.string(),
    payment: PaymentViewSchema,
    previousState: z.enum(paymentStates).nullable(),
    amountMismatch: z.boolean().openapi({ description: "The service's amount differed from the order's: never treat the order as paid." }),
    phoneMismatch: z.boolean().openapi({ description: 'The service reported the payment from another number than the one it was sent to: never treat the order as paid; it is held for support (GET /payments?state=stale says what to send).' }),
  })
  .openapi('PaymentUpdate');

export const MerchantWebhookEventSchema = z
  .object({
    type: z.literal('payment.updated'),
    timestamp: z.string().openapi({ description: 'ISO 8601 time of the transition.' }),
    data: PaymentUpdateSchema,
  })
  .openapi('PaymentUpdatedEvent');

export const RefundRequestSchema = z
  .object({
    refundId: z.string({ error: 'must be a string: your own id for this refund' }).openapi({
      description: 'Your own id for this refund: 1 to 100 letters, digits, "-", "_", "." or ":". The idempotency key: the same id with the same body answers the same refund (and resumes one whose answer was lost); with another body, 409.',
      example: 'refund-42-1',
    }),
    amount: z.string({ error: 'must be a decimal string such as "2000", never a JSON number' }).openapi({
      description: "Decimal string in the major unit, with at most the currency's decimals (never rounded).",
      example: '2000',
    }),
    reason: z.string().max(500).optional().openapi({ description: 'Kept for you; never sent to the payment service.', example: 'damaged item' }),
  })
  .openapi('RefundRequest');


export const RefundUpdateSchema = z
  .object({
    orderId: z.string(),
    idempotencyKey: z.string().openapi({ description: 'The same as `webhook-id`: skip an update whose key you already handled.', example: 'order-42.Xq3v9TbN0aZk.refund.refund-42-1.1' }),
    refund: RefundViewSchema,
    previousState: z.enum(refundStates).nullable(),
  })
  .openapi('RefundUpdate');

export const RefundUpdatedEventSchema = z
  .object({ type: z.literal('refund.updated'), timestamp: z.string().openapi({ description: 'ISO 8601 time of the change.' }), data: RefundUpdateSchema })
  .openapi('RefundUpdatedEvent');

// Compile-time: the schemas describe exactly the types the companion produces.
true satisfies Same<z.infer<typeof RefundViewSchema>, RefundView>;
true satisfies Same<z.infer<typeof RefundUpdateSchema>, RefundUpdate>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof PaymentViewSchema>, PaymentView>;
true satisfies Same<z.infer<typeof PaymentSummarySchema>, PaymentSummary>;
true satisfies Same<z.infer<typeof PaymentUpdateSchema>, PaymentUpdate>;


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
  summary: 'List payments by state and age',
  description: 'e.g. `?state=stale`: payments still waiting for the service\'s word, each with what to do (only the service\'s support can re-emit a lost notification).',
  security,
  request: { query: PaymentListQuerySchema },
  responses: { 200: json(PaymentListSchema, 'Payments, the oldest change first.'), ...errors },
});

export const getPaymentRoute = createRoute({
  method: 'get',
  path: '/payments/{orderId}',
  summary: 'Read the payment of an order, with its notification deliveries',
  security,
  request: { params: z.object({ orderId: z.string().openapi({ param: { name: 'orderId', in: 'path' }, example: 'order-42' }) }) },
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
    params: z.object({ orderId: z.string().openapi({ param: { name: 'orderId', in: 'path' }, example: 'order-42' }) }),
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

const serverRoutes = [createCheckoutRoute, listPaymentsRoute, getPaymentRoute, relayNotificationRoute, createRefundRoute, redeliverRoute, pingRoute];

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
              .object({ type: z.literal('test.ping'), timestamp: z.string(), data: z.object({ webhookId: z.string() }) })
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
