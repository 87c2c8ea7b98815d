/**
 * How every CLI command that asks the running companion reaches its server API (`refund`, `ping`,
 * `redeliver`, `payments --url`): one address, `MOMO_SERVER_URL` or `--url`, both meaning the
 * server API itself (`<MOMO_PUBLIC_URL>/server`, e.g. `http://127.0.0.1:3000/momo/server` on the
 * companion's host), and `MOMO_SERVER_SECRET`. Before 0.4 `ping` and `redeliver` read
 * MOMO_PUBLIC_URL and took the companion's address as `--url`: that address still works as a
 * fallback, and a `--url` without `/server` is refused with a sentence rather than sent to
 * `/momo/server/server/...`.
 */
import { certificateAdvice } from '../../contract/tls-failure.js';
import { UsageError } from './usage-error.js';

type Env = Record<string, string | undefined>;

export interface ServerApiTarget {
  /** The server API's address, no trailing slash: `.../momo/server`. */
  base: string;
  secret: string;
}

const example = 'http://127.0.0.1:3000/momo/server';

/** Where the server API is, from `--url`, then MOMO_SERVER_URL, then MOMO_PUBLIC_URL + `/server`. */
export function serverApiTarget(env: Env, url: string | undefined): ServerApiTarget {
  const given = url?.trim() || env.MOMO_SERVER_URL?.trim();
  const source = url?.trim() ? '--url' : 'MOMO_SERVER_URL';
  let base: string;
  if (given) {
    base = given.replace(/\/+$/, '');
    let parsed: URL;
    try {
      parsed = new URL(base);
    } catch {
      throw new UsageError(`${source} is not a URL (${JSON.stringify(given)}): give the server API's address, e.g. ${example}.`);
    }
    if (!/^https?:$/.test(parsed.protocol) || !parsed.pathname.endsWith('/server')) {
      throw new UsageError(`${source} is the server API's address, the companion's public URL followed by /server (e.g. ${example}); got ${given}.`);
    }
  } else {
    const publicUrl = env.MOMO_PUBLIC_URL?.trim().replace(/\/+$/, '');
    if (!publicUrl) throw new UsageError(`Set MOMO_SERVER_URL to the running companion's server API (e.g. ${example}), or give --url ${example}.`);
    base = `${publicUrl}/server`;
  }
  const secret = env.MOMO_SERVER_SECRET?.trim();
  if (!secret) throw new UsageError('Set MOMO_SERVER_SECRET: the server API these commands call needs it.');
  return { base, secret };
}

export type ServerApiAnswer = { ok: true; status: number; body: unknown } | { ok: false; status?: number; body?: unknown; message: string };

/**
 * Calls `<base><path>` with the server secret. Never throws for a refusal or a dead companion: the
 * answer says what happened, in a sentence naming who answered (the companion, or a proxy in front).
 */
export async function callServerApi(
  target: ServerApiTarget,
  path: string,
  init: { method: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = { method: 'POST' },
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 60_000,
): Promise<ServerApiAnswer> {
  const address = `${target.base}${path}`;
  let response: Response;
  try {
    response = await fetchImpl(address, {
      method: init.method,
      headers: { ...init.headers, authorization: `Bearer ${target.secret}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // A certificate this command does not trust is a proxy that answered, not a companion that is down.
    const advice = certificateAdvice(error, 'this command');
    if (advice) return { ok: false, message: `could not reach the companion at ${address}: ${advice}, or call it on its host over http (MOMO_SERVER_URL=${example})` };
    const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error);
    return { ok: false, message: `could not reach the companion at ${address} (${cause}): is \`momo-checkout serve\` running there? (MOMO_SERVER_URL or --url gives another address)` };
  }
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (body === null) return { ok: false, status: response.status, message: notTheCompanion(response, address) };
  if (!response.ok) return { ok: false, status: response.status, body, message: `the companion answered HTTP ${response.status} at ${address}: ${body.error?.message ?? 'no explanation in the answer'}` };
  return { ok: true, status: response.status, body };
}

/** An answer that is not the server API's JSON: a proxy's refusal, or another server at that address. */
function notTheCompanion(response: Response, address: string): string {
  const server = response.headers.get('server');
  const who = server ? `${server.split('/')[0]} (its Server header)` : 'something that is not the companion';
  if (response.status === 403 || response.status === 401) {
    return (
      `HTTP ${response.status} from ${who} at ${address}: a proxy in front of the companion refused the server API, ` +
      `as docs/deploy.md's nginx and Caddy files do outside your backend's network. Call the companion directly from its host: ` +
      `MOMO_SERVER_URL=http://127.0.0.1:<PORT>/<path>/server (e.g. ${example}).`
    );
  }
  return `HTTP ${response.status} from ${who} at ${address}, not the companion's server API: MOMO_SERVER_URL (or --url) must be the companion's public URL followed by /server (e.g. ${example}).`;
}
