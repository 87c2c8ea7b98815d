/**
 * Express adapter: `app.use('/momo', expressMiddleware(momo))`. Mount it BEFORE `express.json()`
 * (or outside its path): the webhook signature covers the raw body text, which a body parser would
 * consume and re-serialise.
 *
 * Typed structurally (what the adapter reads of Express's request, on top of Node's), so that the
 * declarations of `momo-checkout/server` import nothing from `express`: a Hono or node:http project
 * without `@types/express` type-checks them too. Express's own `Request`, `Response` and
 * `NextFunction` fit these.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, type FetchHandler } from './node-http.js';

/** The part of Express's `Request` the adapter uses: Node's request, `originalUrl` and `body`. */
export interface ExpressLikeRequest extends IncomingMessage {
  originalUrl: string;
  body?: unknown;
}

/** Express's `next`: called with an error when the companion cannot answer. */
export type ExpressLikeNext = (error?: unknown) => void;

/** An Express middleware: `(req, res, next) => void`. */
export type ExpressLikeMiddleware = (req: ExpressLikeRequest, res: ServerResponse, next: ExpressLikeNext) => void;

export function expressMiddleware(companion: FetchHandler): ExpressLikeMiddleware {
  const handle = toNodeHandler(companion);
  return function momoCheckout(req, res, next): void {
    if (req.body !== undefined && req.readableEnded) {
      next(new Error('momo-checkout: a body parser ran before the companion. Mount expressMiddleware before express.json(): webhooks need the raw body.'));
      return;
    }
    // Express strips the mount path from req.url; the companion routes on the full path.
    req.url = req.originalUrl;
    handle(req, res).catch(next);
  };
}
