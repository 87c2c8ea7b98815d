/** node:http adapter: `http.createServer(toNodeHandler(momo))` serves every route, webhook raw body included. */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { closeServer, assertAdapterServes, listen, startFixture, type AdapterFixture } from './fixture.js';

let fixture: AdapterFixture;
let server: ReturnType<typeof createServer>;
let origin: string;
before(async () => {
  fixture = await startFixture();
  let handler: ReturnType<typeof toNodeHandler> | undefined;
  server = createServer((req, res) => void handler!(req, res));
  origin = await listen(server);
  handler = toNodeHandler(fixture.start(`${origin}/momo`));
});
after(async () => {
  await closeServer(server);
  await fixture.close();
});

describe('toNodeHandler', () => {
  it('serves the page routes with CORS and applies a signed webhook from its raw body', async () => {
    await assertAdapterServes(fixture, `${origin}/momo`);
  });

  it('answers 404 outside the mount path', async () => {
    const response = await fetch(`${origin}/elsewhere`);
    assert.equal(response.status, 404);
    await response.arrayBuffer();
  });
});
