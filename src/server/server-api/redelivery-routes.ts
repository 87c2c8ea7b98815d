/**
 * The server API's redelivery and test routes (contract in redelivery-schemas.ts): the merchant
 * checks its endpoint with a signed `test.ping`, and after a fix has a payment's notifications sent
 * again at once instead of waiting for the next scheduled retry.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Redeliver } from '../deliveries/redeliver.js';
import type { PingResult } from '../deliveries/merchant-notifications.js';
import { pingRoute, redeliverRoute } from './redelivery-schemas.js';
// A cycle with server-api.ts, used only at request time (never while the modules load).
import { ServerApiError } from './server-api-error.js';

export interface RedeliveryDeps {
  /** Absent: the companion sends no merchant notifications (no MOMO_MERCHANT_WEBHOOK_URL). */
  redeliver?: Redeliver | undefined;
  pingMerchant?: (() => Promise<PingResult>) | undefined;
  merchantWebhookUrl?: string | undefined;
}

export function registerRedeliveryRoutes(app: OpenAPIHono<any, any, any>, deps: RedeliveryDeps): void {
  app.openapi(redeliverRoute, async (c) => {
    const { orderId } = c.req.valid('param');
    const { all } = c.req.valid('query');
    const outcomes = await endpointConfigured(deps.redeliver)({ orderId, all: all === '1' || all === 'true' });
    if (outcomes === null) {
      throw new ServerApiError('NOT_FOUND', `No checkout for order ${JSON.stringify(orderId)}: nothing to send again. (A payment is kept a week after its last change.)`);
    }
    const iso = (at: number) => new Date(at).toISOString();
    const deliveries = outcomes.map(({ nextAttemptAt, ...outcome }) => ({ ...outcome, ...(nextAttemptAt !== undefined ? { nextAttemptAt: iso(nextAttemptAt) } : {}) }));
    return c.json({ orderId, deliveries }, 200);
  });

  app.openapi(pingRoute, async (c) => {
    const result = await endpointConfigured(deps.pingMerchant)();
    return c.json({ ...result, url: deps.merchantWebhookUrl ?? '' }, 200);
  });
}

function endpointConfigured<T>(action: T | undefined): T {
  if (action === undefined) {
    throw new ServerApiError(
      'NO_MERCHANT_ENDPOINT',
      'This companion sends no notifications to your backend: set MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET (docs/backends.md), then restart it.',
    );
  }
  return action;
}
