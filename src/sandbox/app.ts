/** The sandbox's Hono app: auth (§5), the service's routes, the control surface, envelopes for the rest. */
import { Hono } from 'hono';
import { constantTimeEqual } from '../contract/constant-time.js';
import type { SandboxCore } from './core.js';
import { fail } from './envelope.js';
import { registerAuthorize } from './routes/authorize.js';
import { registerControl } from './routes/control.js';
import { registerDiscovery } from './routes/discovery.js';
import { registerPayIn } from './routes/pay-in.js';
import { registerPayOut, registerPreview, registerWebhookSecrets } from './routes/preview-payout.js';
import type { SandboxControl } from './types.js';
import type { PayerBase } from './paths.js';

/** §4.5: the only public service route. */
const PUBLIC_PATHS = new Set(['/v1/countries']);


export function createApp(core: SandboxCore, control: SandboxControl, payerUrl?: string): Hono {
  const payerBase: PayerBase = (requestUrl) => payerUrl?.replace(/\/+$/, '') ?? new URL(requestUrl).origin;
  const app = new Hono();

  // §5.1: `Authorization: Bearer <key>`; `X-API-Key` does not exist and means nothing.
  const requireApiKey = async function requireApiKey(c: import('hono').Context, next: () => Promise<void>) {
    if (PUBLIC_PATHS.has(c.req.path)) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match?.[1] || !constantTimeEqual(match[1], core.apiKey)) {
      return fail(401, 'UNAUTHORIZED', 'send the API key as "Authorization: Bearer <key>" (X-API-Key is not read)');
    }
    return next();
  };
  app.use('/v1/*', requireApiKey);
  app.use('/_sandbox/*', requireApiKey);

  registerDiscovery(app, payerBase);
  registerPreview(app, core);
  registerPayIn(app, core, payerBase);
  registerPayOut(app, core);
  registerWebhookSecrets(app, core);
  registerAuthorize(app, core);
  registerControl(app, control);

  app.notFound((c) => fail(404, 'NOT_FOUND', `no route ${c.req.method} ${c.req.path}`));
  app.onError((error) => {
    core.log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    return new Response(JSON.stringify({ success: false, message: 'sandbox internal error' }), {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  });
  return app;
}
