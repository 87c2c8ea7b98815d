/** Test helpers: an authenticated request builder and a real local webhook receiver. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BASE = 'http://sandbox.test';

export function request(apiKey: string, path: string, init: { method?: string; body?: string | object; base?: string } = {}): Request {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  }
  return new Request(`${init.base ?? BASE}${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, ...(body ? { body } : {}) });
}

export interface Received {
  path: string;
  contentType: string | undefined;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves with the n-th notification (1-based) once it has arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server standing in for the merchant's webhook endpoint. */
export async function startReceiver(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body });
      for (const wake of waiters.splice(0)) wake();
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor(count, timeoutMs = 3000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} notification(s), got ${received.length}`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * §6.3 verification written independently of src/: keys in body order (JSON.parse keeps the order
 * of non-integer keys, and a webhook body has none), nested keys dotted, numbers as written in the
 * raw text (read with a regex, since JSON.parse would rewrite 12.50 as 12.5).
 */
export function verifyIndependently(body: string, secret: string): boolean {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const rawNumbers = new Map<string, string>();
  for (const match of body.matchAll(/"([A-Za-z_]+)":(-?[0-9][0-9.eE+-]*)/g)) rawNumbers.set(match[1]!, match[2]!);
  let signed = '';
  const walk = (object: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(object)) {
      if (prefix === '' && key === 'signature') continue;
      if (value === undefined) continue;
      if (value !== null && typeof value === 'object') walk(value as Record<string, unknown>, `${prefix}${key}.`);
      else signed += `${prefix}${key}${typeof value === 'number' ? rawNumbers.get(key) ?? String(value) : String(value)}`;
    }
  };
  walk(parsed, '');
  const expected = createHmac('sha512', secret).update(signed, 'utf8').digest('hex');
  const given = String(parsed.signature ?? '');
  return given.length === expected.length && /^[0-9a-f]+$/.test(given) && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true (for state changed by timers); fails after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await sleep(5);
  }
}
