/**
 * `GET <publicUrl>/metrics`: the scrape, never public. `Authorization: Bearer <token>`, where the
 * token is `metricsToken` (`MOMO_METRICS_TOKEN`) or the server secret, compared in constant time
 * (server-api/server-secret.ts). Anything else is a 401 with `WWW-Authenticate` and a sentence.
 * With neither set, metrics are off and the route answers 404 saying how to turn them on: a 401
 * would send someone looking for a credential that does not exist.
 */
import { createServerSecretCheck } from '../server-api/server-secret.js';
import type { Logger } from '../log.js';

export interface MetricsRoute {
  handles(pathname: string): boolean;
  fetch(request: Request): Promise<Response>;
}

export interface MetricsRouteOptions {
  mountPath: string;
  /** The tokens a scrape may present; empty: metrics are off. */
  tokens: readonly string[];
  /** The text of one scrape, and its content type. */
  scrape(): Promise<{ text: string; contentType: string }>;
  log: Logger;
}

export const metricsOffMessage = 'Metrics are off on this companion: set MOMO_METRICS_TOKEN (the option metricsToken, 32 characters or more) or MOMO_SERVER_SECRET, then scrape with Authorization: Bearer <that value>.';

export function createMetricsRoute(options: MetricsRouteOptions): MetricsRoute {
  const path = `${options.mountPath}/metrics`;
  const checks = options.tokens.map((token) => createServerSecretCheck(token));
  const text = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(`${body}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } });

  return {
    handles: (pathname) => pathname === path,
    async fetch(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Scrape /metrics with GET.', { allow: 'GET, HEAD' });
      if (checks.length === 0) return text(404, metricsOffMessage);
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      // Every check runs, so the answer takes as long whichever token (or none) matched.
      const matches = presented === undefined ? [] : await Promise.all(checks.map((check) => check(presented)));
      if (!matches.includes(true)) {
        return text(
          401,
          presented === undefined
            ? 'Scraping needs Authorization: Bearer <MOMO_METRICS_TOKEN or MOMO_SERVER_SECRET> (docs/metrics.md shows the Prometheus scrape configuration).'
            : 'The token is not this companion\'s MOMO_METRICS_TOKEN nor its MOMO_SERVER_SECRET.',
          { 'www-authenticate': 'Bearer realm="momo-checkout metrics"' },
        );
      }
      try {
        const scrape = await options.scrape();
        return new Response(request.method === 'HEAD' ? null : scrape.text, { status: 200, headers: { 'content-type': scrape.contentType, 'cache-control': 'no-store' } });
      } catch (error) {
        options.log.error('metrics scrape failed', { error });
        return text(500, 'The metrics could not be collected; the companion\'s log says why.');
      }
    },
  };
}
