/** Hono adapter: the companion mounted inside a merchant's Hono app, served by @hono/node-server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { honoRoutes } from '../../src/adapters/hono.js';
import { closeServer, assertAdapterServes, startFixture, type AdapterFixture } from './fixture.js';
import type { Companion } from '../../src/server/index.js';

let fixture: AdapterFixture;
let server: Server;
let origin: string;
before(async () => {
  fixture = await startFixture();
  let companion: Companion | undefined;
  const shop = new Hono();
  shop.get('/', (c) => c.text('the shop'));
  shop.route('/', honoRoutes({ fetch: (request) => companion!.fetch(request) }, '/momo'));
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port)) as Server;
  });
  origin = `http://127.0.0.1:${port}`;
  companion = fixture.start(`${origin}/momo`);
});
after(async () => {
  await closeServer(server);
  await fixture.close();
});

describe('honoRoutes', () => {
  it('serves the page routes with CORS and applies a signed webhook from its raw body', async () => {
    await assertAdapterServes(fixture, `${origin}/momo`);
  });

  it("leaves the shop's own routes to the shop", async () => {
    assert.equal(await (await fetch(`${origin}/`)).text(), 'the shop');
  });
});
