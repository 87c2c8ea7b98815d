/**
 * node:http adapter: `http.createServer(toNodeHandler(momo))`, or call it from your own handler for
 * requests under the companion's mount path. @hono/node-server turns Node's request into a Web
 * `Request` (streaming the body untouched, which the webhook's raw-body signature needs).
 */
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

export function toNodeHandler(companion: FetchHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener((request) => companion.fetch(request));
}
