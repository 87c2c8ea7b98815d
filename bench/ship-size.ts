/**
 * Sizes of what merchants ship (issue 5, "Size"): the script-tag files as `npm run build:browser`
 * builds them (gzip -9; budget 25.5 KB for the IIFE (issue 10: 3G payers; 256 bytes more since issue 31, 256 more since issues 41 and 45)), and what the React wrapper adds on top of the
 * element in an app's bundle (budget 1 KB gzip; React itself is the app's, so it is left out).
 *
 * Run alone: npx tsx bench/ship-size.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildBrowser } from '../scripts/build-browser.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
/**
 * 25 KB (issue 10: what a 3G payer downloads before typing), plus 256 bytes since issue 31 split the
 * element's controller and client into sibling files (+181 bytes gzip: names that stay in the
 * minified file); readable code for the payer's money path was worth that much. Plus 256 more since
 * issues 41 and 45 (+about 210 bytes gzip together): the element's own Trusted Types policy (a page
 * that enforces Trusted Types got English and no language file), the re-post that keeps a payer in
 * "sending" while a dead process's pay lock frees, and the reserved height given back at Pay; each
 * keeps a payer paying where they were turned away.
 */
export const scriptTagBudgetBytes = 25 * 1024 + 512;
export const reactWrapperBudgetBytes = 1024;

/** Minified ES bundle of `entry` with React left to the app, as an app bundler would include it. */
async function appBundle(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      rolldownOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/], output: { minify: true } },
      lib: { entry: join(root, entry), formats: ['es'], fileName: () => 'bundle.mjs' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  // The entry chunk only: since issue 32 each language is a chunk of its own, loaded when a payer
  // needs it (measured apart, as the language files).
  const code = outputs.flatMap((o) => ('output' in o ? o.output : [])).flatMap((item) => (item.type === 'chunk' && item.isEntry ? [item.code] : []));
  if (code.length !== 1) throw new Error(`expected one entry chunk for ${entry}, got ${code.length}`);
  return code[0]!;
}

const gzip = (text: string) => gzipSync(text, { level: 9 }).length;

export async function benchShipSize(): Promise<Figure[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'momo-ship-size-'));
  try {
    const { files, languages } = await buildBrowser(outDir);
    const iife = files.find((f) => f.format === 'iife')!;
    const es = files.find((f) => f.format === 'es')!;
    const element = gzip(await appBundle('src/define.ts'));
    const withReact = gzip(await appBundle('src/react/index.ts'));
    return [
      { name: `script tag IIFE ${iife.file}, gzip -9`, value: iife.gzipBytes / 1024, unit: 'KB' },
      { name: 'script tag IIFE, budget left (25.5 KB gzip)', value: (scriptTagBudgetBytes - iife.gzipBytes) / 1024, unit: 'KB' },
      { name: `ES module ${es.file}, gzip -9`, value: es.gzipBytes / 1024, unit: 'KB' },
      // Issue 23: a French, Portuguese, Swahili or Arabic payer downloads one of these on top.
      ...languages.map((f) => ({ name: `language file ${f.file}, gzip -9`, value: f.gzipBytes / 1024, unit: 'KB' })),
      { name: 'React wrapper adds (app bundle, React external), gzip -9', value: (withReact - element) / 1024, unit: 'KB' },
      { name: 'React wrapper, budget left (1 KB gzip)', value: (reactWrapperBudgetBytes - (withReact - element)) / 1024, unit: 'KB' },
    ];
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await benchShipSize()) console.log(`${figure.name.padEnd(60)} ${figure.value.toFixed(2).padStart(8)} ${figure.unit}`);
}
