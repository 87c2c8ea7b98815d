import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentView } from '../../src/contract/companion.js';
import { CompanionRequestError, NetworkError } from '../../src/client/errors.js';
import { createFetchClient } from '../../src/client/fetch-client.js';
import { createSseParser } from '../../src/client/sse-parser.js';
import type { ServerSentEvent } from '../../src/client/sse-parser.js';
import { until } from '../support/until.js';


function view(version: number, state: PaymentView['state'] = 'pending'): PaymentView {
  return {
    state, version, orderId: 'order-1', phoneNumberMasked: '+229••••00', operator: null, workflow: 'provider_auth',
    instructions: null, authorizationUrl: null, returned: false, canRetry: false, updatedAt: '2030-01-01T00:00:00Z',
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTP server on 127.0.0.1, whose handler each test replaces. */
let server: Server;
let base = '';
let handler: Handler = (_req, res) => res.end();
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/momo`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};
const noWait = async () => {};

describe('createSseParser', () => {
  it('reads events split anywhere, with CRLF, comments, ids and multi-line data', () => {
    const events: ServerSentEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    const text = ': keep-alive\r\nid: 3\r\nevent: payment\r\ndata: {"a":\r\ndata: 1}\r\n\r\nretry: 500\ndata: plain\n\n';
    for (const char of text) parser.push(char);
    assert.deepEqual(events, [
      { event: 'payment', data: '{"a":\n1}', id: '3' },
      { event: 'message', data: 'plain', id: '3' },
    ]);
    assert.equal(parser.lastEventId, '3');
    assert.equal(parser.retryMs, 500);
  });

  it('does not dispatch an event until its blank line arrives', () => {
    const events: ServerSentEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    parser.push('data: half\n');
    assert.equal(events.length, 0);
    parser.push('\n');
    assert.equal(events.length, 1);
  });
});

describe('createFetchClient, JSON routes', () => {
  it('sends the token as a Bearer header (never in the URL) and the body as JSON', async () => {
    handler = (_req, res) => json(res, 200, { phoneNumber: '+2290197000000', country: 'BJ', operator: null, wallet: null });
    seen.length = 0;
    const client = createFetchClient({ endpoint: `${base}/`, token: 'ck_secret', onPageVisible: null });
    const answer = await client.lookup({ phoneNumber: '01 97 00 00 00', country: 'BJ' });
    assert.equal(answer.country, 'BJ');
    const request = seen[0]!;
    assert.equal(request.url, '/momo/checkout/lookup');
    assert.equal(request.headers.authorization, 'Bearer ck_secret');
    assert.ok(!request.url.includes('ck_secret'));
    assert.deepEqual(JSON.parse(request.body), { phoneNumber: '01 97 00 00 00', country: 'BJ' });
  });

  it('rejects with a CompanionRequestError carrying the contract code and details', async () => {
    handler = (_req, res) =>
      json(res, 400, { error: { code: 'AMOUNT_OUT_OF_RANGE', message: 'Out of range', details: { min: '100', max: null } } });
    const client = createFetchClient({ endpoint: base, token: 't', onPageVisible: null });
    await assert.rejects(client.pay({ phoneNumber: '+2290197000000', useWallet: false }), (error: unknown) => {
      assert.ok(error instanceof CompanionRequestError);
      assert.equal(error.code, 'AMOUNT_OUT_OF_RANGE');
      assert.equal(error.status, 400);
      assert.deepEqual(error.details, { min: '100', max: null });
      return true;
    });
  });

  it('turns a page that is not a companion, an answer off the contract and an unreachable server into NetworkError', async () => {
    handler = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>Not found</html>');
    };
    const client = createFetchClient({ endpoint: base, token: 't', onPageVisible: null });
    await assert.rejects(
      client.getCheckout(),
      (e: unknown) => e instanceof NetworkError && e.unexpectedAnswer && e.message.includes(`${base}/checkout answered HTTP 404`),
    );
    handler = (_req, res) => json(res, 200, { orderId: 'o' });
    await assert.rejects(client.getCheckout(), (e: unknown) => e instanceof NetworkError && /amount/.test(e.message));
    const down = createFetchClient({ endpoint: 'http://127.0.0.1:1/momo', token: 't', onPageVisible: null });
    await assert.rejects(down.getStatus(), (e: unknown) => e instanceof NetworkError && !e.unexpectedAnswer);
  });

  it('reads a proxy\'s 429 as RATE_LIMITED and its 502/503/504 as SERVICE_UNAVAILABLE, whatever the body', async () => {
    const client = createFetchClient({ endpoint: base, token: 't', onPageVisible: null });
    for (const [status, code] of [[429, 'RATE_LIMITED'], [502, 'SERVICE_UNAVAILABLE'], [503, 'SERVICE_UNAVAILABLE'], [504, 'SERVICE_UNAVAILABLE']] as const) {
      handler = (_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html>busy</html>');
      };
      await assert.rejects(client.getCheckout(), (e: unknown) => e instanceof CompanionRequestError && e.code === code && e.status === status);
      handler = (_req, res) => json(res, status, { message: 'no code here' });
      await assert.rejects(client.getCheckout(), (e: unknown) => e instanceof CompanionRequestError && e.code === code);
    }
    handler = (_req, res) => json(res, 429, { error: { code: 'RATE_LIMITED', message: 'Slow down.' } });
    await assert.rejects(client.getCheckout(), (e: unknown) => e instanceof CompanionRequestError && e.message === 'Slow down.');
  });

  it('reads pay and status answers given as a view or as { payment }', async () => {
    const client = createFetchClient({ endpoint: base, token: 't', onPageVisible: null });
    handler = (_req, res) => json(res, 200, view(1));
    assert.equal((await client.pay({ phoneNumber: '+1', useWallet: false })).version, 1);
    handler = (_req, res) => json(res, 200, { payment: view(2) });
    assert.equal((await client.getStatus())?.version, 2);
    handler = (_req, res) => json(res, 200, { payment: null });
    assert.equal(await client.getStatus(), null);
  });
});

describe('createFetchClient, the status stream', () => {
  it('delivers payment events, reconnects with Last-Event-ID, and skips news it already has', async () => {
    let connections = 0;
    seen.length = 0;
    handler = (req, res) => {
      assert.equal(req.headers.authorization, 'Bearer t');
      connections += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 1) {
        res.write(`id: 1\nevent: payment\ndata: ${JSON.stringify(view(1))}\n\n`);
        res.end(`id: 2\nevent: payment\ndata: ${JSON.stringify(view(2, 'unknown'))}\n\n`);
      } else {
        // The server replays from Last-Event-ID; an old one (v2) is ignored by the client.
        res.write(`id: 2\nevent: payment\ndata: ${JSON.stringify(view(2, 'unknown'))}\n\n`);
        res.write(`event: other\ndata: ignored\n\n`);
        res.end(`id: 3\nevent: payment\ndata: ${JSON.stringify(view(3, 'completed'))}\n\n`);
      }
    };
    const got: PaymentView[] = [];
    const stop = new AbortController();
    const done = new Promise<void>((resolve) => {
      const client = createFetchClient({ endpoint: base, token: 't', sleep: noWait, onPageVisible: null });
      client.subscribe((p) => {
        got.push(p);
        if (p.state === 'completed') resolve();
      }, stop.signal);
    });
    await done;
    stop.abort();
    assert.deepEqual(got.map((p) => [p.version, p.state]), [[1, 'pending'], [2, 'unknown'], [3, 'completed']]);
    const second = seen.filter((r) => r.url === '/momo/checkout/events')[1];
    assert.equal(second?.headers['last-event-id'], '2');
  });

  it('falls back to polling status when the stream keeps failing, and stops on abort', async () => {
    let polls = 0;
    let streams = 0;
    handler = (req, res) => {
      if (req.url === '/momo/checkout/events') {
        streams += 1;
        return json(res, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } });
      }
      polls += 1;
      json(res, 200, view(polls));
    };
    const got: number[] = [];
    const stop = new AbortController();
    await new Promise<void>((resolve) => {
      const client = createFetchClient({
        endpoint: base, token: 't', sleep: async () => new Promise((r) => setImmediate(r)), onPageVisible: null,
        failuresBeforePolling: 2, pollsBetweenStreamAttempts: 100,
      });
      client.subscribe((p) => {
        got.push(p.version);
        if (got.length === 3) resolve();
      }, stop.signal);
    });
    stop.abort();
    assert.equal(streams, 2, 'two stream failures, then polling');
    assert.deepEqual(got, [1, 2, 3]);
  });

  it('stops for good when the token is refused (401): retrying cannot help', async () => {
    let streams = 0;
    handler = (req, res) => {
      if (req.url === '/momo/checkout/events') streams += 1;
      json(res, 401, { error: { code: 'TOKEN_EXPIRED', message: 'expired' } });
    };
    const stop = new AbortController();
    const client = createFetchClient({ endpoint: base, token: 't', sleep: noWait, onPageVisible: null });
    client.subscribe(() => assert.fail('no payment expected'), stop.signal);
    // Until the first attempt has been refused (a loaded machine takes more than a fixed 50 ms),
    // then long enough for a retry to show (no wait between attempts here: noWait).
    await until('the first stream attempt', () => streams >= 1, 5_000);
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    assert.equal(streams, 1);
  });

  it('back online: a stream waiting out a long reconnect delay tries again at once, and the status is re-read', async () => {
    let streams = 0;
    let statusReads = 0;
    handler = (req, res) => {
      if (req.url === '/momo/checkout/events') {
        streams += 1;
        if (streams === 1) return json(res, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`id: 4\nevent: payment\ndata: ${JSON.stringify(view(4, 'completed'))}\n\n`);
        return;
      }
      statusReads += 1;
      json(res, 200, { payment: null });
    };
    let backOnline: () => void = () => {};
    const stop = new AbortController();
    const client = createFetchClient({
      endpoint: base, token: 't', onPageVisible: null, onOnline: (check) => (backOnline = check), reconnectDelaysMs: [60_000],
    });
    const got = new Promise<PaymentView>((resolve) => client.subscribe(resolve, stop.signal));
    while (streams < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20)); // now waiting out the 60 s delay
    backOnline();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), 5000)));
    const outcome = await Promise.race([got, stuck]);
    clearTimeout(timer);
    stop.abort();
    assert.notEqual(outcome, 'stuck', 'the stream did not reconnect when the browser came back online');
    assert.equal((outcome as PaymentView).version, 4);
    assert.equal(streams, 2);
    // The re-read and the new stream go out together: the stream's event may come first.
    await until('the status re-read', () => statusReads >= 1, 5_000);
    assert.equal(statusReads, 1, 'the status was re-read once on coming back');
  });

  it('re-checks the status when the page becomes visible again', async () => {
    handler = (req, res) => {
      if (req.url === '/momo/checkout/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n'); // held open, says nothing
        return;
      }
      json(res, 200, view(9, 'completed'));
    };
    let becameVisible: () => void = () => {};
    const stop = new AbortController();
    const client = createFetchClient({
      endpoint: base, token: 't', onPageVisible: (check) => (becameVisible = check),
    });
    const got = new Promise<PaymentView>((resolve) => client.subscribe(resolve, stop.signal));
    becameVisible();
    assert.equal((await got).version, 9);
    stop.abort();
  });
});
