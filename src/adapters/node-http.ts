/**
 * node:http adapter: `http.createServer(toNodeHandler(momo))`, or call it from your own handler for
 * requests under the companion's mount path. @hono/node-server turns Node's request into a Web
 * `Request` (streaming the body untouched, which the webhook's raw-body signature needs).
 *
 * The webhook route is the hot path (thousands of notifications a second): when the handler
 * offers `acceptWebhook`, its POSTs are read straight from Node's request, without building a
 * `Request` and a `Response` (on Node 20 those two cost as much as verifying the signature).
 */
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { maxWebhookBytes } from '../server/companion/inbox.js';

export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
  webhookPath?: string;
  acceptWebhook?(rawBody: Uint8Array): Promise<{ status: number; body: string }>;
}

export function toNodeHandler(companion: FetchHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const general = getRequestListener((request) => companion.fetch(request));
  const { webhookPath, acceptWebhook } = companion;
  if (!webhookPath || !acceptWebhook) return general;
  return async (req, res) => {
    if (req.method !== 'POST' || (req.url !== webhookPath && !req.url?.startsWith(`${webhookPath}?`))) return general(req, res);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxWebhookBytes) return answer(res, 413, '{"error":"body too large"}', true);
    const body = await readBody(req);
    if (body === 'too large') return answer(res, 413, '{"error":"body too large"}', true);
    if (body === 'aborted') return; // the sender went away: nothing to answer
    const result = await acceptWebhook(body);
    answer(res, result.status, result.body, false);
  };
}

/** Events rather than an async iterator: on the hot path the iterator costs more than the read. */
function readBody(req: IncomingMessage): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxWebhookBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', () => resolve('aborted'));
    req.once('aborted', () => resolve('aborted'));
  });
}

function answer(res: ServerResponse, status: number, body: string, close: boolean): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
  res.end(body);
}
