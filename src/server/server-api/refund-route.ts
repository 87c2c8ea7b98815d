/**
 * `POST <publicUrl>/server/payments/{orderId}/refunds` (refunds/): a refund's refusals mapped to
 * the server API's answers, each with its code and sentence.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { RefundView } from '../model/refund.js';
import { refundRefusalAnswer } from '../http-answers/refund-answers.js';
import { RefundRefusal } from '../refunds/refund-refusal.js';
import type { RefundRequest } from '../refunds/refund-rules.js';
import { createRefundRoute } from './server-api-routes.js';

export function registerRefundRoute(app: OpenAPIHono, refund: (orderId: string, request: RefundRequest) => Promise<RefundView>): void {
  app.openapi(createRefundRoute, async (c) => {
    try {
      return c.json(await refund(c.req.valid('param').orderId, c.req.valid('json')), 200);
    } catch (error) {
      if (!(error instanceof RefundRefusal)) throw error;
      // Not through onError: these codes are the refund's own, listed in the OpenAPI document.
      return c.json(...refundRefusalAnswer(error)) as never;
    }
  });
}
