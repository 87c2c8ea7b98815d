/**
 * The server API's redelivery and test routes (contract): send a payment's merchant notifications
 * again, and send a signed test notification. Registered by redelivery-routes.ts, listed in the
 * OpenAPI document by server-api-schemas.ts.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { refundStates } from '../model/refund.js';
import { ErrorSchema, OrderIdPathParams, paymentStates, serverApiErrors, serverApiSecurity, jsonContent } from './schema-parts.js';

const RedeliveryOutcomeSchema = z
  .object({
    webhookId: z.string().openapi({ description: 'The `webhook-id` it was first sent under, unchanged: a handler that recorded it skips it.', example: 'order-42.Xq3v9TbN0aZk.2' }),
    reportedState: z
      .enum([...paymentStates, ...refundStates])
      .openapi({ description: 'The state this notification reports (that of its transition: the payment\'s, or with `refundId` the refund\'s).' }),
    refundId: z.string().optional().openapi({ description: 'Set when this notification is a `refund.updated`.' }),
    delivered: z.boolean().openapi({ description: 'Your endpoint answered 2xx.' }),
    status: z.number().int().optional().openapi({ description: "HTTP status of your endpoint's last answer, when there was one." }),
    error: z.string().optional().openapi({ description: 'Why it was not delivered (an HTTP status, a timeout, a refused connection).' }),
    nextAttemptAt: z.string().optional().openapi({ description: 'ISO 8601: the next scheduled try, when not delivered.' }),
  })
  .openapi('RedeliveryOutcome');

export const RedeliveryResultSchema = z
  .object({
    orderId: z.string(),
    deliveries: z.array(RedeliveryOutcomeSchema).openapi({ description: 'What was sent again, oldest transition first (empty: this payment has had no notification yet).' }),
  })
  .openapi('RedeliveryResult');

export const PingResultSchema = z
  .object({
    ok: z.boolean().openapi({ description: 'Your endpoint answered 2xx.' }),
    status: z.number().int().optional().openapi({ description: "HTTP status of your endpoint's answer, when there was one." }),
    error: z.string().optional(),
    durationMs: z.number().int().openapi({ description: 'How long your endpoint took to answer.' }),
    webhookId: z.string().openapi({ example: 'test.ping.Xq3v9TbN0aZk' }),
    url: z.string().openapi({ description: 'Where it was sent (MOMO_MERCHANT_WEBHOOK_URL).' }),
  })
  .openapi('PingResult');

const noEndpoint = jsonContent(ErrorSchema, '`NO_MERCHANT_ENDPOINT`: this companion sends no notifications (set MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET).');

export const redeliverRoute = createRoute({
  method: 'post',
  path: '/payments/{orderId}/redeliver',
  summary: 'Send the payment\'s notifications to your endpoint again, now',
  description:
    'Every notification of this payment your endpoint has not acknowledged (still queued, or given up after 72 hours) is sent at once, in order, each under its first `webhook-id`; when all were acknowledged, the last one; with `?all=1`, every one kept (the last ten). Answers once they were tried. One not delivered stays queued and is retried with backoff as before. Use it after fixing your handler or its secret.',
  security: serverApiSecurity,
  request: {
    params: OrderIdPathParams,
    query: z.object({ all: z.enum(['0', '1', 'true', 'false']).optional().openapi({ description: '`1`: every notification kept, acknowledged or not.', example: '1' }) }),
  },
  responses: {
    200: jsonContent(RedeliveryResultSchema, 'What was sent again and how each went.'),
    ...serverApiErrors,
    404: jsonContent(ErrorSchema, 'No checkout for this order id.'),
    409: noEndpoint,
  },
});

export const pingRoute = createRoute({
  method: 'post',
  path: '/notifications/test',
  summary: 'Send a signed test notification to your endpoint',
  description:
    'POSTs one `test.ping` event to MOMO_MERCHANT_WEBHOOK_URL, signed like every notification, once (never retried), and answers with what your endpoint answered and how long it took. Your handler verifies it and answers 2xx without changing any order. Sent only to an endpoint that lists `test.ping` in MOMO_MERCHANT_EVENTS; otherwise nothing is sent and the answer (`ok: false`) says why.',
  security: serverApiSecurity,
  responses: {
    200: jsonContent(PingResultSchema, "Your endpoint's answer (`ok: false` with the reason when it did not answer 2xx)."),
    ...serverApiErrors,
    409: noEndpoint,
  },
});
