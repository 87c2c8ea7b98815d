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
import { buildLanguageFiles, languageFileRefs } from '../scripts/build-browser.js';
import { scriptTagConfig } from '../vite.browser.config.js';


/** The file name the page's `<script src="/assets/momo-checkout.js">` asks for. */
export const bundleFileName = 'momo-checkout.js';

/** A language's file beside it: `momo-checkout.fr.js`, included by a French page only. */
export const languageFileName = (code: string): string => `momo-checkout.${code}.js`;

export interface DemoBundle {
  /** The minified IIFE, ready to serve. */
  code: Buffer;
  /** gzip -9 size in bytes (what a payer downloads). */
  gzipBytes: number;
  buildMs: number;
  /** Each language's file (`fr`, `pt`, ...), minified IIFE; tests that stub the bundle leave it out. */
  languages?: ReadonlyMap<string, Buffer>;
}

export async function buildDemoBundle(): Promise<DemoBundle> {
  const started = performance.now();
  const outDir = await mkdtemp(join(tmpdir(), 'momo-demo-bundle-'));
  try {
    // An IIFE: a plain `<script src defer>` under `script-src 'self'`, no module loader.
    // The languages first: the element's file loads them by these names and hashes (issue 32).
    const built = await buildLanguageFiles(outDir, languageFileName);
    await build({ ...scriptTagConfig({ outDir, emptyOutDir: false, formats: ['iife'], fileName: () => bundleFileName, languageFiles: languageFileRefs(built) }), configFile: false });
    const languages = new Map<string, Buffer>();
    for (const { language, file } of built) languages.set(language, await readFile(join(outDir, file)));
    const code = await readFile(join(outDir, bundleFileName));
    return { code, gzipBytes: gzipSync(code, { level: 9 }).byteLength, buildMs: Math.round(performance.now() - started), languages };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
