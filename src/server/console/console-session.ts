/**
 * Part `console/` (docs/architecture.md): the operations console's routes, its session, its
 * queries over the store and its pictures' data. May import deliveries/, refunds/, payments/,
 * stores/, model/ and the foundation; never another route layer or the composition root.
 *
 * The console's session: a signed cookie, so that any process sharing the secret accepts it
 * (several `serve` processes on one Redis store) and the store keeps nothing for a live session. The
 * cookie holds a random session id and its expiry, signed with HMAC-SHA-256 under a key derived from
 * the accepted secrets (changing the secret signs every session out). The CSRF token is the HMAC of
 * the session id under the same key: the page reads it from the session route and sends it with
 * every POST, and a page of another origin can neither read it nor forge it.
 *
 * Signing out ends the session itself, not only the browser's copy of its cookie: the store keeps
 * the ended session's id until its expiry, and every process refuses a cookie that carries it (a
 * copied cookie, a browser that kept one). The store's two optional session methods do this.
 *
 * Web Crypto only, like the rest of the companion's request path: it runs wherever `fetch` does.
 */
import { base64url, randomId } from '../tokens.js';
import { constantTimeEqual } from '../../contract/constant-time.js';

export interface ConsoleSessionOptions {
  /** What signs in: the server secret and/or MOMO_CONSOLE_PASSWORD (at least one). */
  secrets: readonly string[];
  /** How long a session lasts from sign-in. */
  ttlMs: number;
  now: () => number;
  /** Where signed-out sessions are kept until their expiry (the store); absent: sign-out only drops the cookie. */
  ended?: EndedSessions | undefined;
  /**
   * The life of a store that forgets with its process (`CheckoutStore.volatileId`, the memory
   * store's): sessions are bound to it, so a signed-out cookie, which such a store no longer
   * remembers after a restart, opens nothing then either.
   */
  boundTo?: string | undefined;
}

export interface EndedSessions {
  endConsoleSession(sessionId: string, expiresAt: number): Promise<void>;
  isConsoleSessionEnded(sessionId: string): Promise<boolean>;
}

export interface SignedSession {
  id: string;
  expiresAt: number;
}

export interface ConsoleSessions {
  /** True when `presented` is one of the secrets; constant time whatever was presented. */
  checkSecret(presented: string): Promise<boolean>;
  /** A new session and its cookie value. */
  issue(): Promise<{ session: SignedSession; cookie: string }>;
  /** The session a cookie value carries, or null when it is absent, forged, expired or signed out. */
  verify(cookie: string | undefined): Promise<SignedSession | null>;
  /** Signs the session out: its cookie is refused from now on, wherever it is presented. */
  end(session: SignedSession): Promise<void>;
  csrfToken(session: SignedSession): Promise<string>;
  /** True when `presented` is the session's CSRF token (constant time). */
  checkCsrf(session: SignedSession, presented: string | undefined): Promise<boolean>;
}

const encoder = new TextEncoder();

export function createConsoleSessions(options: ConsoleSessionOptions): ConsoleSessions {
  if (options.secrets.length === 0) throw new Error('createConsoleSessions: give at least one secret');
  const key = hmacKey(`momo-console-session\0${options.secrets.join('\0')}${options.boundTo ? `\0${options.boundTo}` : ''}`);
  const sign = async (text: string) => base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(text))));
  // Each secret is compared through its HMAC: both sides are 32 bytes whatever their lengths.
  const expected = Promise.all(options.secrets.map((secret) => sign(`secret:${secret}`)));

  return {
    checkSecret: secretMatcher(sign, expected),
    async issue() {
      const session = { id: randomId(24), expiresAt: options.now() + options.ttlMs };
      const body = `${session.id}.${session.expiresAt}`;
      return { session, cookie: `${body}.${await sign(`session:${body}`)}` };
    },
    async verify(cookie) {
      const match = /^([A-Za-z0-9_-]{16,64})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(cookie ?? '');
      if (!match) return null;
      const [, id, expiresAt, signature] = match as unknown as [string, string, string, string];
      if (!constantTimeEqual(await sign(`session:${id}.${expiresAt}`), signature)) return null;
      if (Number(expiresAt) <= options.now()) return null;
      if (await options.ended?.isConsoleSessionEnded(id)) return null;
      return { id, expiresAt: Number(expiresAt) };
    },
    async end(session) {
      await options.ended?.endConsoleSession(session.id, session.expiresAt);
    },
    csrfToken: (session) => sign(`csrf:${session.id}`),
    async checkCsrf(session, presented) {
      if (!presented) return false;
      return constantTimeEqual(await sign(`csrf:${session.id}`), presented);
    },
  };
}

async function hmacKey(material: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(material));
  return crypto.subtle.importKey('raw', digest, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/**
 * A constant-time check of a presented secret against any of `secrets`, through their HMACs (both
 * sides 32 bytes whatever their lengths) under a key made for this process. Not the server API's
 * Bearer check (`createServerSecretCheck` in server-api/server-secret.ts, one secret, SHA-256).
 */
export function createSecretListCheck(secrets: readonly string[]): (presented: string) => Promise<boolean> {
  const key = hmacKey(`momo-console-secret-check\0${randomId(24)}`);
  const sign = async (text: string) => base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(text))));
  return secretMatcher(sign, Promise.all(secrets.map((secret) => sign(`secret:${secret}`))));
}

function secretMatcher(sign: (text: string) => Promise<string>, expected: Promise<string[]>): (presented: string) => Promise<boolean> {
  return async (presented) => {
    const [want, got] = [await expected, await sign(`secret:${presented}`)];
    let matched = false;
    // Every secret is compared, so the time does not tell which one (if any) matched.
    for (const candidate of want) matched = constantTimeEqual(candidate, got) || matched;
    return matched;
  };
}
