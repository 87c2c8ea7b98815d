/**
 * The demo shop's stylesheet, written into each page's head (issue 32): a `<link rel="stylesheet">`
 * blocks the first paint for one more round trip (about 0.4 s on Slow 3G, and Lighthouse's
 * "render-blocking resources"), for 3 KB. The page's CSP still forbids inline styles but this one:
 * `style-src 'self' 'sha256-…'` names its hash (csp.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** demo/public/demo.css, as served before; read once at start. */
export const demoStyle = readFileSync(new URL('./public/demo.css', import.meta.url), 'utf8');

/** The CSP source that allows exactly this `<style>` element's text. */
export const demoStyleSource = `'sha256-${createHash('sha256').update(demoStyle).digest('base64')}'`;
