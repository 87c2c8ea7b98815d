/**
 * The merchant's endpoint for `MOMO_MERCHANT_WEBHOOK_URL`, for tests that count what the shop was
 * told: a real HTTP server on loopback that verifies each notification's Standard Webhooks
 * signature (a forged or altered one fails the test) and keeps what it carried.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** `whsec_` and a key of 32 bytes, as the docs have merchants make it. */
export const merchantWebhookSecret = `whsec_${Buffer.from('merchant-receiver-test-key-32-by').toString('base64')}`;

export interface ReceivedUpdate {
  webhookId: string;
  orderId: string;
  idempotencyKey: string;
  state: string;
}

export interface MerchantReceiver {
  url: string;
  received(): ReceivedUpdate[];
  close(): Promise<void>;
}

export async function startMerchantReceiver(): Promise<MerchantReceiver> {
  const verifier = new Webhook(merchantWebhookSecret);
  const received: ReceivedUpdate[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(req.headers[name] ?? '')]));
      const event = verifier.verify(body, headers) as { type: string; data: { orderId: string; idempotencyKey: string; payment: { state: string } } };
      if (event.type === 'payment.updated') {
        received.push({ webhookId: headers['webhook-id']!, orderId: event.data.orderId, idempotencyKey: event.data.idempotencyKey, state: event.data.payment.state });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/momo-webhook`,
    received: () => [...received],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
