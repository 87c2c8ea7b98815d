/**
 * The service's notification route (`<publicUrl>/webhook`): the body limit, then the raw bytes to
 * the companion's receiver, answered as `http-answers/notification-answers.ts` says. The node:http
 * adapter has a faster way to the same answer (`Companion.acceptWebhook`).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { companionRoutes } from '../../contract/companion.js';
import { webhookBodyLimit } from '../http-answers/notification-answers.js';
import type { AppDeps, Env } from './app-deps.js';

export function registerWebhookRoute(app: Hono<Env>, deps: Pick<AppDeps, 'acceptWebhook'>): void {
  // The webhook route is the hot path (issue 3: thousands per second): a declared length is
  // checked without wrapping the body stream; only a body of unknown length is counted as it comes.
  const { maxBytes, tooLarge: tooLargeAnswer } = webhookBodyLimit;
  const tooLarge = (c: Context<Env>) => c.body(tooLargeAnswer.body, tooLargeAnswer.status, { 'content-type': 'application/json', connection: 'close' });
  const webhookLimit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  app.use(companionRoutes.webhook, async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared === undefined) return webhookLimit(c, next);
    if (Number(declared) > maxBytes) return tooLarge(c);
    await next();
    return undefined;
  });


  app.post(companionRoutes.webhook, async (c) => {
    const answer = await deps.acceptWebhook(new Uint8Array(await c.req.arrayBuffer()));
    return c.body(answer.body, answer.status, { 'content-type': 'application/json' });
  });
}
