/**
 * The demo's browser bundle: `src/define.ts` built with Vite's JS API and the script-tag build's
 * own configuration (IIFE only, into a temporary folder), so the demo always serves the element as
 * it stands in `src/`, not a stale `dist/`, built exactly as merchants get it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { scriptTagConfig } from '../vite.browser.config.js';


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
    // An IIFE: a plain `<script src defer>` under `script-src 'self'`, no module loader.
    await build({ ...scriptTagConfig({ outDir, formats: ['iife'], fileName: () => bundleFileName }), configFile: false });
    const code = await readFile(join(outDir, bundleFileName));
    return { code, gzipBytes: gzipSync(code, { level: 9 }).byteLength, buildMs: Math.round(performance.now() - started) };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
