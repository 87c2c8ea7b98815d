/**
 * `POST <publicUrl>/server/payments/{orderId}/refunds` (refunds/): a refund's refusals mapped to
 * the server API's answers, each with its code and sentence.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { RefundView } from '../model/refund.js';
import { RefundRefusal, type RefundRefusalCode } from '../refunds/refund-refusal.js';
import type { RefundRequest } from '../refunds/refund-rules.js';
import { createRefundRoute } from './server-api-schemas.js';

const statusOf: Record<RefundRefusalCode, 400 | 403 | 404 | 409 | 422 | 500> = {
  REFUNDS_DISABLED: 403,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  NOT_REFUNDABLE: 409,
  REFUND_ID_REUSED: 409,
  REFUND_IN_PROGRESS: 409,
  AMOUNT_INVALID: 422,
  EXCEEDS_PAID_AMOUNT: 422,
  NO_PAYOUT_ID: 500,
};

export function registerRefundRoute(app: OpenAPIHono, refund: (orderId: string, request: RefundRequest) => Promise<RefundView>): void {
  app.openapi(createRefundRoute, async (c) => {
    try {
      return c.json(await refund(c.req.valid('param').orderId, c.req.valid('json')), 200);
    } catch (error) {
      if (!(error instanceof RefundRefusal)) throw error;
      // Not through onError: these codes are the refund's own, listed in the OpenAPI document.
      return c.json({ error: { code: error.code, message: error.message } }, statusOf[error.code]) as never;
    }
  });
}
