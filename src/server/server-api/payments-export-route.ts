/**
 * `GET <serverUrl>/payments` with `Accept: text/csv` (or the xlsx type): the accountant's export of
 * the payments created in a window (`from`, `to`), streamed (http-answers/export-answer.ts). Registered before the JSON
 * list on the same path, behind the same Bearer check: without that Accept the JSON answer is the
 * one it always was. Documented on listPaymentsRoute (server-api-routes.ts).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { acceptedExport, exportAnswer, ExportWindowError } from '../http-answers/export-answer.js';
import type { Logger } from '../log.js';
import type { CheckoutStore } from '../stores/store.js';
import { ServerApiError } from './server-api-error.js';

export function registerPaymentsExport(app: OpenAPIHono, deps: { store: CheckoutStore; now: () => number; log: Logger }): void {
  app.use('/payments', async function paymentsAsCsv(c, next) {
    const format = c.req.method === 'GET' ? acceptedExport(c.req.header('accept')) : null;
    if (format === null) return next();
    try {
      return await exportAnswer(deps.store, { from: c.req.query('from'), to: c.req.query('to') }, deps.now(), deps.log, format);
    } catch (error) {
      if (error instanceof ExportWindowError) throw new ServerApiError('BAD_REQUEST', error.message);
      throw error;
    }
  });
}
