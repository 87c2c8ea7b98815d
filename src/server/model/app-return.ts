/**
 * The return address of a merchant's mobile app (issue 54): where the app page sends the outcome
 * when the app's WebView has no script channel (`shopapp://paid?orderId=...`), which the app
 * intercepts. Only a scheme the merchant configured (`appReturnSchemes`) is ever followed, never
 * an address as the page's URL gives it: a page that navigated anywhere its query said would be an
 * open redirect.
 */

/** Schemes a browser opens itself, or runs: never an app's own (RFC 3986 syntax, lower case). */
const browserSchemes = new Set(['http', 'https', 'javascript', 'data', 'blob', 'file', 'about', 'vbscript', 'ftp', 'ws', 'wss', 'filesystem', 'view-source', 'intent', 'content', 'chrome', 'mailto', 'tel', 'sms']);

/** Why `scheme` cannot be an app's return scheme, or null when it can (`shopapp`, `com.shop.app`). */
export function appSchemeProblem(scheme: string): string | null {
  if (!/^[a-z][a-z0-9+.-]{1,63}$/.test(scheme)) return `${JSON.stringify(scheme)} is not a URL scheme in lower case without ':' (e.g. shopapp)`;
  if (browserSchemes.has(scheme)) return `${scheme} is a scheme browsers open themselves, not your app's own (e.g. shopapp)`;
  return null;
}

/** `return` as given in the page's URL, when its scheme is one of `schemes`; else null. */
export function appReturnUrl(text: string, schemes: readonly string[]): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const scheme = url.protocol.slice(0, -1);
  return schemes.includes(scheme) && appSchemeProblem(scheme) === null ? url : null;
}
