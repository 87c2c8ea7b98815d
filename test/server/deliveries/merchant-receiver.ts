/**
 * The merchant backend's endpoint, for the tests of merchant notifications: a real HTTP server on
 * loopback that records every request and answers what the test says.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export const merchantSecret = `whsec_${Buffer.from('merchant-webhook-test-key-32-bytes!').toString('base64')}`;

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  answered: number;
}

/** What the endpoint answers a request (`null`: no answer at all); `body` is the request's, as received. */
export type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => number | null;

/** The merchant backend's endpoint: answers what `answer` says, records every request. */
export async function startReceiver(): Promise<{ url: string; received: Received[]; answer: Answer; close(): Promise<void> }> {
  const received: Received[] = [];
  const receiver = {
    url: '',
    received,
    answer: ((): number | null => 204) as Answer,
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const status = receiver.answer(req, res, body);
    received.push({
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
      body,
      answered: status ?? 0,
    });
    if (status === null) return; // hang
    res.statusCode = status;
    res.end();
  });
  await listen(server);
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/momo-events`;
  receiver.close = () => stop(server);
  return receiver;
}

export function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

export function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function until(what: string, predicate: () => boolean | Promise<boolean>, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function verified(item: Received): { type: string; timestamp: string; data: any } {
  const headers = { 'webhook-id': item.id, 'webhook-timestamp': item.timestamp, 'webhook-signature': item.signature };
  return new Webhook(merchantSecret).verify(item.body, headers) as { type: string; timestamp: string; data: any };
}

