/**
 * Hono adapter: `app.route('/', honoRoutes(momo))` or `app.all('/momo/*', (c) => momo.fetch(c.req.raw))`.
 * The companion is itself a Hono app around `fetch`, so mounting is a single line.
 */
import { Hono, type Context } from 'hono';
import type { FetchHandler } from './node-http.js';

/**
 * A Hono app forwarding every request under `mountPath` (the path of the companion's publicUrl) to
 * the companion, untouched: the raw request keeps the webhook's body as signed.
 *
 * `clientAddress` gives the payer's address for the per-address limits; the default reads the
 * socket on @hono/node-server (`c.env.incoming`). On another runtime pass its own, e.g. Hono's
 * `getConnInfo(c).remote.address` from that runtime's `conninfo` helper.
 *
 * @example
 * const shop = new Hono();
 * shop.route('/', honoRoutes(momo, '/momo'));
 */
export function honoRoutes(companion: FetchHandler, mountPath = '', options: { clientAddress?: (c: Context) => string | undefined } = {}): Hono {
  const app = new Hono();
  const clientAddress = options.clientAddress ?? nodeServerAddress;
  app.all(`${mountPath}/*`, (c) => companion.fetch(c.req.raw, { clientAddress: clientAddress(c) }));
  return app;
}

function nodeServerAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

