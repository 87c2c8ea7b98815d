/**
 * Hono adapter: `app.route('/', honoRoutes(momo))` or `app.all('/momo/*', (c) => momo.fetch(c.req.raw))`.
 * The companion is itself a Hono app around `fetch`, so mounting is a single line.
 */
import { Hono } from 'hono';
import type { FetchHandler } from './node-http.js';

/**
 * A Hono app forwarding every request under `mountPath` (the path of the companion's publicUrl) to
 * the companion, untouched: the raw request keeps the webhook's body as signed.
 *
 * @example
 * const shop = new Hono();
 * shop.route('/', honoRoutes(momo, '/momo'));
 */
export function honoRoutes(companion: FetchHandler, mountPath = ''): Hono {
  const app = new Hono();
  app.all(`${mountPath}/*`, (c) => companion.fetch(c.req.raw));
  return app;
}

