/** URL checks shared by the companion's options, its checkouts and its webhook handling. */
import ipaddr from 'ipaddr.js';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http(s)://localhost`, `127.0.0.1` or `[::1]` URLs: the local sandbox and demo only. */
export function isLoopbackUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * The merchant page a payer is sent back to: an absolute http(s) URL with a host, parsed by the
 * WHATWG URL parser (the one browsers use), never matched by a pattern: `https://` alone or
 * `http://[::1` are not URLs, and a redirect to them would fail after the payer approved.
 * Returns the URL as the parser writes it, or null when it is not one.
 */
export function parseReturnUrl(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  return url.href;
}

export interface AuthorizationUrlPolicy {
  /** The local sandbox only: `http://` on loopback hosts is allowed. */
  allowInsecureLocal: boolean;
  /** Host names with `xn--` labels (internationalised names, which homographs hide behind). Default refused. */
  allowIdnHosts?: boolean;
}

/**
 * Whether a notification's `nextAction.authorizationUrl` may be sent to a payer's browser, which
 * navigates to it: https only; no user name or password (`https://bank.example@evil.example`);
 * no internationalised host (`xn--` labels: a Cyrillic "а" in "pаypal" is invisible to a payer)
 * unless allowed; and no IP literal outside the public unicast range (private, loopback,
 * link-local such as 169.254.169.254, including IPv4 written as IPv6, `[::ffff:10.0.0.1]`).
 * The URL parser has already turned `0x7f.1` or `2852039166` into dotted IPv4 and Unicode hosts
 * into punycode, so the checks below see what the browser will connect to.
 */
export function isAllowedAuthorizationUrl(text: string, policy: AuthorizationUrlPolicy): boolean {
  return authorizationUrlRefusal(text, policy) === null;
}

/** Why an authorisation URL is not sent to a payer (said in the log and the stuck list), or null when it is. */
export type AuthorizationUrlRefusal = 'not-a-url' | 'credentials' | 'not-https' | 'not-public' | 'look-alike-host';

/** {@link isAllowedAuthorizationUrl}'s reason: null for a URL a payer may be sent to. */
export function authorizationUrlRefusal(text: string, policy: AuthorizationUrlPolicy): AuthorizationUrlRefusal | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not-a-url';
  }
  if (url.username !== '' || url.password !== '') return 'credentials';
  const local = policy.allowInsecureLocal && isLoopbackUrl(url.href);
  if (url.protocol !== 'https:' && !local) return 'not-https';
  if (local) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return 'not-public';
  if (ipaddr.isValid(host)) return ipaddr.process(host).range() === 'unicast' ? null : 'not-public';
  if (!policy.allowIdnHosts && host.split('.').some((label) => label.startsWith('xn--'))) return 'look-alike-host';
  return null;
}

/** The refusal in the words of a log line and the stuck list. */
export const authorizationUrlRefusalText: Record<AuthorizationUrlRefusal, string> = {
  'not-a-url': 'it is not a URL',
  credentials: 'it carries a user name or password',
  'not-https': 'it is not https',
  'not-public': 'its host is not a public address (loopback, private or link-local)',
  'look-alike-host': 'its host is an internationalised name (a look-alike is possible; allowIdnAuthorizationUrls allows them)',
};

/**
 * A URL as it may be shown or logged: the query's values and any fragment replaced by `…`, so a
 * token a merchant put in its endpoint's query (`?key=…`) never reaches a log line or the console.
 * The names stay, so the merchant still recognises their URL. Text that is no URL is shown as `…`.
 */
export function redactedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '…';
  }
  const names = [...url.searchParams.keys()];
  const query = names.length > 0 ? `?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}` : '';
  return `${url.origin}${url.pathname}${query}${url.hash ? '#…' : ''}`;
}
