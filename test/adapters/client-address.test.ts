/**
 * Every adapter passes the socket's address beside the request (for the companion's per-address
 * limits), and never takes it from a header the client wrote.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { expressMiddleware } from '../../src/adapters/express.js';
import { honoRoutes } from '../../src/adapters/hono.js';
import { toNodeHandler, type FetchHandler } from '../../src/adapters/node-http.js';
import { closeServer, listen } from './fixture.js';

const seen: Array<string | undefined> = [];
const recorder: FetchHandler = {
  fetch: async (_request, context) => {
    seen.push(context?.clientAddress);
    return new Response('ok');
  },
};

let server: Server | undefined;
afterEach(async () => {
  if (server) await closeServer(server);
  server = undefined;
  seen.length = 0;
});

async function ask(origin: string): Promise<void> {
  const response = await fetch(`${origin}/momo/checkout`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
  assert.equal(await response.text(), 'ok');
}

describe('client address from the adapters', () => {
  it('toNodeHandler', async () => {
    const handler = toNodeHandler(recorder);
    server = createServer((req, res) => void handler(req, res));
    await ask(await listen(server));
    assert.deepEqual(seen, ['127.0.0.1']);
  });

  it('expressMiddleware', async () => {
    const app = express();
    app.use('/momo', expressMiddleware(recorder));
    server = createServer(app);
    await ask(await listen(server));
    assert.deepEqual(seen, ['127.0.0.1']);
  });

  it('honoRoutes on @hono/node-server', async () => {
    const shop = new Hono();
    shop.route('/', honoRoutes(recorder, '/momo'));
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port)) as Server;
    });
    await ask(`http://127.0.0.1:${port}`);
    assert.deepEqual(seen, ['127.0.0.1']);
  });
});
