/**
 * examples/vue (Vue 3.5, Vite): installed with the packed @momo-checkout/element, `vue-tsc` strict,
 * built, and paid in Chromium; its `@momo-succeeded` handler is typed by `@momo-checkout/element/vue`.
 */
import { describe, it } from 'node:test';
import { provesSinglePageApp } from './harness.js';

describe('examples/vue', () => {
  it('type-checks strictly (and not without the element types), builds, and pays a sandbox checkout in Chromium', async () => {
    await provesSinglePageApp('vue', 'src/env.d.ts');
  });
});
