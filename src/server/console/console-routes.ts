/**
 * `<publicUrl>/console`: the operations console. The sign-in page and its stylesheet are all that is
 * served without a session; the shell, its script and every `api/` route need the session cookie,
 * and every POST also the session's CSRF token and this server's own Origin.
 *
 * The cookie is HttpOnly (the page's script never reads it), SameSite=Strict (no other site's page
 * sends it), Secure unless the companion is reached on loopback, scoped to the console's path, and
 * expires with the session. Signing out ends the session in the store, so a copy of the cookie is
 * refused too (console-session.ts).
 */
import { Hono, type Context, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { consolePath, csrfHeader } from '../../contract/console.js';
import type { Logger } from '../log.js';
import type { Limiter } from '../stores/limit-backend.js';
import { registerConsoleApi, type ConsoleApiDeps } from './console-api.js';
import type { ConsoleScript } from './console-assets.js';
import { consoleShell, languageOf, signInPage } from './console-pages.js';
import { consoleRefusal } from './console-refusal.js';
import type { ConsoleSessions, SignedSession } from './console-session.js';
import { consoleStylesheet } from './console-stylesheet.js';

export const sessionCookie = 'momo_console';

/**
 * Sign-in limits. Per client address: enough for a typo or two, far too few to guess a secret; it
 * applies only where the address is known (the socket's, or a trusted proxy's `X-Forwarded-For`),
 * so one guesser behind the documented proxy can no longer lock everyone out under one key.
 * Everywhere: the console password may be short, so every password attempt from anywhere also
 * counts in one slower bucket, against guessers with many addresses. Neither bucket holds back the
 * server secret (at least 32 characters: out of reach of guessing), which is recognised before
 * either is taken, so the operator can always sign in, even from an address a guesser shares (an
 * office, a carrier NAT). A wrong secret counts like any wrong password. (The OWASP pattern; the
 * maintained limiters on npm count keys, not this rule.)
 */
export const signInLimits = {
  perAddress: { burst: 5, perMinute: 5 },
  everywhere: { burst: 30, perMinute: 10 },
};

export interface ConsoleDeps extends ConsoleApiDeps {
  mountPath: string;
  /** The origin of `publicUrl`: the only one a console POST may come from. */
  publicOrigin: string;
  /** False only when the companion is reached on loopback over http (the browser would drop a Secure cookie). */
  secureCookie: boolean;
  sessions: ConsoleSessions;
  signInLimiters: { perAddress: Limiter; everywhere: Limiter };
  /** True when `presented` is the server secret (constant time); absent without one. */
  isServerSecret?: ((presented: string) => Promise<boolean>) | undefined;
  script(): Promise<ConsoleScript>;
  log: Logger;
}

export interface ConsoleRoutes {
  handles(pathname: string): boolean;
  /**
   * `clientAddress`: who is signing in, as the companion resolved it (its proxy rules), for the
   * limit; undefined when unknown (a proxy in front that the companion was not told to trust).
   */
  fetch(request: Request, clientAddress: string | undefined): Promise<Response>;
}

type ConsoleEnv = { Variables: { session: SignedSession }; Bindings: { clientAddress: string | undefined } };

const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function createConsoleRoutes(deps: ConsoleDeps): ConsoleRoutes {
  const prefix = `${deps.mountPath}${consolePath}`;
  const app = new Hono<ConsoleEnv>().basePath(prefix);

  app.use('*', async function secureHeaders(c: Context, next: Next) {
    await next();
    c.header('content-security-policy', contentSecurityPolicy);
    c.header('x-content-type-options', 'nosniff');
    c.header('x-frame-options', 'DENY');
    // same-origin, not no-referrer: with no-referrer a form's POST carries Origin: null, which the origin check refuses.
    c.header('referrer-policy', 'same-origin');
    c.header('cache-control', 'no-store');
  });

  app.use('*', async function sameOriginPosts(c: Context, next: Next) {
    // A browser sends Origin with every POST: one from another origin (or none) is not our page.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('origin') !== deps.publicOrigin) {
      return c.json(...consoleRefusal('FORBIDDEN_ORIGIN', `Console actions are accepted from ${deps.publicOrigin} only.`));
    }
    await next();
  });

  app.get('/assets/console.css', (c) => c.body(consoleStylesheet, 200, { 'content-type': 'text/css; charset=utf-8' }));

  app.post('/sign-in', bodyLimit({ maxSize: 4096, onError: (c) => c.text('Sign-in form too large.', 413) }), async (c) => {
    const language = languageOf(c.req.raw);
    const address = c.env.clientAddress ?? 'unknown';
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const presented = typeof form.secret === 'string' ? form.secret : '';
    // The server secret is recognised before any bucket is taken (issue 40, finding 5): five wrong
    // guesses from the operator's office or carrier NAT must not answer the operator's own secret 429.
    // It is at least 32 characters, out of reach of guessing, so it needs no limit of its own.
    if (!(await deps.isServerSecret?.(presented))) {
      const perAddressWait = c.env.clientAddress ? await deps.signInLimiters.perAddress.take(c.env.clientAddress) : 0;
      if (perAddressWait > 0) {
        deps.log.warn('console sign-in refused: too many attempts from this address', { address });
        return c.html(signInPage(language, prefix, { kind: 'limited', retryAfterSeconds: perAddressWait }), 429, { 'retry-after': String(perAddressWait) });
      }
      const everywhereWait = await deps.signInLimiters.everywhere.take('all');
      if (everywhereWait > 0) {
        deps.log.warn('console sign-in refused: too many password attempts from everywhere; the server secret still signs in', { address });
        return c.html(signInPage(language, prefix, { kind: 'limited-everywhere', retryAfterSeconds: everywhereWait }), 429, { 'retry-after': String(everywhereWait) });
      }
      if (!(await deps.sessions.checkSecret(presented))) {
        deps.log.warn('console sign-in refused: wrong secret', { address });
        return c.html(signInPage(language, prefix, { kind: 'wrong' }), 401);
      }
    }
    const { session, cookie } = await deps.sessions.issue();
    deps.log.info('console sign-in', { address });
    c.header('set-cookie', cookieHeader(cookie, Math.round((session.expiresAt - deps.now()) / 1000), prefix, deps.secureCookie));
    return c.redirect(`${prefix}?lang=${language}`, 303);
  });

  // Past this point, nothing without a session.
  app.use('*', async function requireSession(c: Context<ConsoleEnv>, next: Next) {
    const session = await deps.sessions.verify(readCookie(c.req.header('cookie'), sessionCookie));
    if (!session) {
      if (c.req.method === 'GET' && !new URL(c.req.url).pathname.startsWith(`${prefix}/api/`) && !c.req.path.endsWith('.js')) {
        return c.html(signInPage(languageOf(c.req.raw), prefix), 200);
      }
      return c.json(...consoleRefusal('SIGN_IN', 'Sign in to the console first (your session ended or was never opened).'));
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const presented = c.req.header(csrfHeader) ?? (await formField(c.req.raw.clone(), 'csrf'));
      if (!(await deps.sessions.checkCsrf(session, presented))) {
        return c.json(...consoleRefusal('CSRF', `This action needs the session's CSRF token in the ${csrfHeader} header: reload the console.`));
      }
    }
    c.set('session', session);
    await next();
  });

  app.get('/', (c) => c.html(consoleShell(languageOf(c.req.raw), prefix)));
  app.get('/assets/console.js', async (c) => {
    const script = await deps.script();
    if (!script.ok) {
      deps.log.error('console script missing', { reason: script.reason });
      return c.text(`The console's script is not built: ${script.reason}.`, 503);
    }
    return c.body(script.code as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'text/javascript; charset=utf-8' });
  });
  app.post('/sign-out', async (c: Context<ConsoleEnv>) => {
    await deps.sessions.end(c.get('session'));
    deps.log.info('console sign-out', { address: c.env.clientAddress });
    c.header('set-cookie', cookieHeader('', 0, prefix, deps.secureCookie));
    return c.redirect(prefix, 303);
  });

  registerConsoleApi(app, deps);

  return {
    handles: (pathname) => pathname === prefix || pathname.startsWith(`${prefix}/`),
    fetch: async (request, clientAddress) => app.fetch(request, { clientAddress }),
  };
}

function cookieHeader(value: string, maxAgeSeconds: number, path: string, secure: boolean): string {
  return `${sessionCookie}=${value}; Path=${path}; Max-Age=${Math.max(0, maxAgeSeconds)}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The sign-out form posts its token as a field (a plain form sends no custom header). */
async function formField(request: Request, name: string): Promise<string | undefined> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return undefined;
  const value = new URLSearchParams(await request.text()).get(name);
  return value ?? undefined;
}
