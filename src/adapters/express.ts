/**
 * Express adapter: `app.use('/momo', expressMiddleware(momo))`. Mount it BEFORE `express.json()`
 * (or outside its path): the webhook signature covers the raw body text (§6.3), which a body parser
 * would consume and re-serialise.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { toNodeHandler, type FetchHandler } from './node-http.js';

export function expressMiddleware(companion: FetchHandler) {
  const handle = toNodeHandler(companion);
  return function momoCheckout(req: ExpressRequest, res: ExpressResponse, next: NextFunction): void {
    if (req.body !== undefined && req.readableEnded) {
      next(new Error('momo-checkout: a body parser ran before the companion. Mount expressMiddleware before express.json(): webhooks need the raw body.'));
      return;
    }
    // Express strips the mount path from req.url; the companion routes on the full path.
    req.url = req.originalUrl;
    handle(req, res).catch(next);
  };
}
