/**
 * Sizes of what merchants ship (issue 5, "Size"): the script-tag files as `npm run build:browser`
 * builds them (gzip -9; budget 25 KB for the IIFE: issue 10's 3G payers, back there since issue 54),
 * and what the React wrapper adds on top of the element in an app's bundle (budget 1 KB gzip; React
 * itself is the app's, so it is left out).
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
 * 25 KB (issue 10: what a 3G payer downloads before typing). Issues 31, 41 and 45 had raised it to
 * 25.5 KB (+181 bytes gzip for the controller's sibling files, about +210 for the Trusted Types
 * policy, the pay lock's re-post and the height given back at Pay); 0.5.0 shipped 25.36 KB. Issue 54
 * brought the file back under 25 KB without removing a feature (the phone metadata without its
 * formats, the templates' indentation folded, Lit's properties declared without decorators), and
 * the budget with it: the next feature finds its bytes in the file, not in the budget.
 */
export const scriptTagBudgetBytes = 25 * 1024;
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
      { name: 'script tag IIFE, budget left (25 KB gzip)', value: (scriptTagBudgetBytes - iife.gzipBytes) / 1024, unit: 'KB' },
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
