/**
 * examples/svelte (Svelte 5, Vite): installed with the packed @momo-checkout/element,
 * `svelte-check` strict, built, and paid in Chromium; its `onmomo-succeeded` handler is typed by
 * `@momo-checkout/element/svelte`.
 */
import { describe, it } from 'node:test';
import { provesSinglePageApp } from './harness.js';

describe('examples/svelte', () => {
  it('type-checks strictly (and not without the element types), builds, and pays a sandbox checkout in Chromium', async () => {
    await provesSinglePageApp('svelte', 'src/app.d.ts');
  });
});
