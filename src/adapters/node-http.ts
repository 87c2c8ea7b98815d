/**
 * node:http adapter: `http.createServer(toNodeHandler(momo))`, or call it from your own handler for
 * requests under the companion's mount path. @hono/node-server turns Node's request into a Web
 * `Request` (streaming the body untouched, which the webhook's raw-body signature needs).
 *
 * The webhook route is the hot path (thousands of notifications a second): when the handler
 * offers `acceptWebhook`, its POSTs are read straight from Node's request, without building a
 * `Request` and a `Response` (on Node 20 those two cost as much as verifying the signature).
 *
 * The socket's address goes to the companion beside the request (for its per-address limits),
 * never in a header a payer could write.
 */
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FetchHandler {
  fetch(request: Request, context?: { clientAddress?: string | undefined }): Promise<Response>;
  webhookPath?: string;
  acceptWebhook?(rawBody: Uint8Array): Promise<{ status: number; body: string }>;
  /** The webhook route's body limit and its answer: a larger body is refused unread. */
  webhookBodyLimit?: { readonly maxBytes: number; readonly tooLarge: { status: number; body: string } };
}

export function toNodeHandler(companion: FetchHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const general = getRequestListener((request, env) => companion.fetch(request, { clientAddress: env.incoming.socket?.remoteAddress }));
  const { webhookPath, acceptWebhook, webhookBodyLimit } = companion;
  if (!webhookPath || !acceptWebhook || !webhookBodyLimit) return general;
  const { maxBytes, tooLarge } = webhookBodyLimit;
  return async (req, res) => {
    if (req.method !== 'POST' || (req.url !== webhookPath && !req.url?.startsWith(`${webhookPath}?`))) return general(req, res);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) return answer(res, tooLarge.status, tooLarge.body, true);
    const body = await readBody(req, maxBytes);
    if (body === 'too large') return answer(res, tooLarge.status, tooLarge.body, true);
    if (body === 'aborted') return; // the sender went away: nothing to answer
    const result = await acceptWebhook(body);
    answer(res, result.status, result.body, false);
  };
}

/** Events rather than an async iterator: on the hot path the iterator costs more than the read. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
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
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}

/**
 * Timeouts for the node:http server you start (`http.createServer(serverTimeouts, handler)`): Node's
 * default lets a client take 300 s to send a request, so slow bodies can hold connections (and the
 * webhook route's) for minutes. Status streams are not cut: these limit receiving the request, not
 * the response.
 */
export const serverTimeouts: Readonly<{ headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number }> = {
  /** The headers must arrive within 10 s. */
  headersTimeout: 10_000,
  /** The whole request (headers and body) within 15 s: a webhook is at most 64 KB. */
  requestTimeout: 15_000,
  /** How often Node checks the two above (its default, 30 s, would let a slow client stay 45 s). */
  connectionsCheckingInterval: 2_000,
};
