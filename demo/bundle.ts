/**
 * The demo's browser bundle: `src/define.ts` built with Vite's JS API and an inline config, so the
 * demo needs no root `vite.config.ts` (Storybook merges one into its own build) and always serves
 * the element as it stands in `src/`, not a stale `dist/`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { libphonenumberModern } from '../scripts/libphonenumber-modern.js';
import { minifyLitCss } from '../scripts/minify-lit-css.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The file name the page's `<script src="/assets/momo-checkout.js">` asks for. */
export const bundleFileName = 'momo-checkout.js';

export interface DemoBundle {
  /** The minified IIFE, ready to serve. */
  code: Buffer;
  /** gzip -9 size in bytes (what a payer downloads). */
  gzipBytes: number;
  buildMs: number;
}

export async function buildDemoBundle(): Promise<DemoBundle> {
  const started = performance.now();
  const outDir = await mkdtemp(join(tmpdir(), 'momo-demo-bundle-'));
  try {
    await build({
      configFile: false,
      root,
      mode: 'production',
      logLevel: 'warn',
      // The same size plugins as the script-tag build (vite.browser.config.ts).
      plugins: [minifyLitCss(), libphonenumberModern()],
      // Lit picks its production build from NODE_ENV; library mode does not set it.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: true,
        minify: true,
        sourcemap: false,
        copyPublicDir: false,
        // An IIFE: a plain `<script src defer>` under `script-src 'self'`, no module loader.
        lib: { entry: join(root, 'src', 'define.ts'), formats: ['iife'], name: 'MomoCheckout', fileName: () => bundleFileName },
      },
    });
    const code = await readFile(join(outDir, bundleFileName));
    return { code, gzipBytes: gzipSync(code, { level: 9 }).byteLength, buildMs: Math.round(performance.now() - started) };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
