/**
 * CORS for the page's routes: only the configured origins get the headers, and a state-changing
 * call from any other page is refused (and logged once per origin, `origin-refusal.ts`).
 */
import type { Context } from 'hono';
import { PayerRefusal } from '../model/payer-refusal.js';
import type { AppDeps, Env } from './app-deps.js';
import { createOriginRefusal } from './origin-refusal.js';

export function corsHeaders(deps: Pick<AppDeps, 'allowedOrigins'>, origin: string | undefined): Record<string, string> {
  if (!origin || !isAllowedOrigin(deps, origin)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-headers': 'authorization, content-type, last-event-id',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

/**
 * The configured origins only. Never the request's own origin: that comes from its Host header,
 * which whoever sends the request writes (`Host: evil.example` with `Origin: http://evil.example`).
 */
function isAllowedOrigin(deps: Pick<AppDeps, 'allowedOrigins'>, origin: string): boolean {
  return deps.allowedOrigins.includes(origin);
}

export function corsFor(deps: Pick<AppDeps, 'allowedOrigins' | 'log' | 'now'>) {
  const refuseOrigin = createOriginRefusal(deps.log, deps.now);
  return async function cors(c: Context<Env>, next: () => Promise<void>) {
    const origin = c.req.header('origin');
    const headers = corsHeaders(deps, origin);
    const allowed = origin !== undefined && isAllowedOrigin(deps, origin);
    const route = new URL(c.req.url).pathname;
    if (c.req.method === 'OPTIONS') {
      if (allowed) return c.body(null, 204, headers);
      const method = c.req.header('access-control-request-method') ?? 'OPTIONS';
      return c.text(refuseOrigin(origin, route, method), 403, headers);
    }
    // Every state-changing call must come from an allowed page (browsers always send Origin on POST).
    if (c.req.method !== 'GET' && !allowed) {
      refuseOrigin(origin, route, c.req.method);
      throw new PayerRefusal('ORIGIN_NOT_ALLOWED', 'This page is not allowed to use this checkout.');
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    return undefined;
  };
}
