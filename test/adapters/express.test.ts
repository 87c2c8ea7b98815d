/**
 * Express 5 adapter: `app.use('/momo', expressMiddleware(momo))`. The webhook needs the raw body,
 * so a body parser that ran first is reported instead of failing every signature in silence.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { expressMiddleware } from '../../src/adapters/express.js';
import { closeServer, assertAdapterServes, listen, startFixture, type AdapterFixture } from './fixture.js';

let fixture: AdapterFixture;
let server: ReturnType<typeof createServer>;
let origin: string;
before(async () => {
  fixture = await startFixture();
  const app = express();
  let middleware: ReturnType<typeof expressMiddleware> | undefined;
  app.use('/momo', (req, res, next) => middleware!(req, res, next));
  // The shop's own JSON routes come after the companion: express.json() never sees its requests.
  app.use(express.json());
  app.post('/api/orders', (req, res) => void res.json({ echoed: req.body }));
  // A wrongly ordered mount, to hold the diagnosis.
  app.use('/wrong', express.json(), (req, res, next) => middleware!(req, res, next));
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).json({ message: error.message }));
  server = createServer(app);
  origin = await listen(server);
  middleware = expressMiddleware(fixture.start(`${origin}/momo`));
});
after(async () => {
  await closeServer(server);
  await fixture.close();
});

describe('expressMiddleware', () => {
  it('serves the page routes with CORS and applies a signed webhook from its raw body', async () => {
    await assertAdapterServes(fixture, `${origin}/momo`);
  });

  it("leaves the shop's own routes to Express", async () => {
    const response = await fetch(`${origin}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    assert.deepEqual(await response.json(), { echoed: { a: 1 } });
  });

  it('says how to fix a body parser mounted before it', async () => {
    const response = await fetch(`${origin}/wrong/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    assert.equal(response.status, 500);
    assert.match((await response.json()).message, /before express\.json\(\)/);
  });
});
