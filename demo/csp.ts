/**
 * The demo page's Content-Security-Policy: the strict one the element must work under (issue 4 §1
 * "Safety"). The sandbox is served on the demo's own origin (see start-demo.ts), so the brief's
 * `<sandbox origin>` in `img-src` and `form-action` is `'self'` here; against the real service the
 * logos come from its https origin, which `https:` covers.
 */
import { demoStyleSource } from './inline-style.js';

export function demoCsp(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The shop's own stylesheet is inline (no render-blocking request): only that text, by its hash.
    `style-src 'self' ${demoStyleSource}`,
    "img-src 'self' https:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Lit's only sink is its own template policy named `lit-html`; the element's language files
    // come through its own policy `momo-checkout` (its files only); nothing else may create one.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html momo-checkout',
  ].join('; ');
}
