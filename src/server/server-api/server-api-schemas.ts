/**
 * The server API's contract (merchant backend → companion): zod schemas of every request and
 * answer. The same objects validate requests (server-api.ts, through the routes of
 * `server-api-routes.ts`) and generate the OpenAPI 3.1 document (`npm run openapi` →
 * docs/openapi.json), so the document cannot drift from what the server does.
 */
import { z } from '@hono/zod-openapi';
import type { PaymentView } from '../../contract/companion.js';
import type { PaymentUpdate } from '../model/payment-update.js';
import { merchantNotificationKinds, type MerchantNotificationKind, type MerchantNotificationPayloads } from '../model/notification-kinds.js';
import type { PaymentSummary } from '../payments/payments-list.js';
import { ErrorSchema, paymentStates, jsonContent as json } from './schema-parts.js';

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
    approvalUnavailable: z.literal(true).optional().openapi({ description: "Present when the service's approval page for this attempt was refused (not https, or not on a public host): the payer cannot approve it and may pay another way while `canRetry`; the attempt is left to expire at the service." }),
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
export const idempotencyKeyExample = 'order-42.Xq3v9TbN0aZk.2';
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

export const RefundViewSchema = z
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
  from: z.string().optional().openapi({
    description: 'With `Accept: text/csv` only (the export): payments created at or after this UTC time, ISO 8601 (`2026-11-01T00:00:00Z`) or a date (`2026-11-01`, midnight UTC). Default: the first day of the current month (UTC).',
    example: '2026-11-01',
  }),
  to: z.string().optional().openapi({ description: 'With `Accept: text/csv` only: payments created before this UTC time (excluded), as `from`. Default: now.', example: '2026-12-01' }),
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
export const ServiceNotificationSchema = z
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
    linkId: z.string().optional().openapi({ description: 'The payment link it was paid through (GET /links/{linkId}); absent for your own checkouts.' }),
    phoneMismatch: z.boolean().openapi({ description: 'The service reported the payment from another number than the one it was sent to: never treat the order as paid; it is held for support (GET /payments?state=stale says what to send).' }),
  })
  .openapi('PaymentUpdate');

export const MerchantWebhookEventSchema = z
  .object({
    type: z.literal(merchantNotificationKinds.payment.event),
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
    reason: z.string().max(500).optional().openapi({ description: 'Kept for you; never sent to the payment service. A NUL character is refused (400); half of a character (a lone UTF-16 surrogate, as `slice` can leave of an emoji) is kept as U+FFFD.', example: 'damaged item' }),
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
  .object({ type: z.literal(merchantNotificationKinds.refund.event), timestamp: z.string().openapi({ description: 'ISO 8601 time of the change.' }), data: RefundUpdateSchema })
  .openapi('RefundUpdatedEvent');

/** A test notification's payload: it concerns no order. */
export const TestPingSchema = z.object({ webhookId: z.string() });

/**
 * Each kind's payload schema (model/notification-kinds.ts), what the OpenAPI document publishes:
 * a kind added to the table without one does not compile.
 */
export const merchantPayloadSchemas = {
  payment: PaymentUpdateSchema,
  refund: RefundUpdateSchema,
  test: TestPingSchema,
} satisfies { [K in MerchantNotificationKind]: z.ZodType<MerchantNotificationPayloads[K]> };

// Compile-time: the schemas describe exactly the types the companion produces.
true satisfies Same<z.infer<typeof RefundViewSchema>, RefundView>;
true satisfies Same<z.infer<typeof RefundUpdateSchema>, RefundUpdate>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof PaymentViewSchema>, PaymentView>;
true satisfies Same<z.infer<typeof PaymentSummarySchema>, PaymentSummary>;
true satisfies Same<z.infer<typeof PaymentUpdateSchema>, PaymentUpdate>;
