/**
 * Size of what a payer downloads: `src/define.ts` (element + phone metadata for the served
 * countries + English and French) built as the script-tag bundle (Vite library mode, IIFE, minified),
 * measured gzip -9. Budget: 30 KB (issue 4, "Size and speed").
 *
 * Run alone: npx tsx bench/bundle-size.ts
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
export const budgetBytes = 30 * 1024;

/** Builds `entry` as a minified IIFE into a temporary folder and returns the bundle's text. */
export async function buildBrowserBundle(entry = 'src/define.ts', alias: Record<string, string> = {}): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'momo-bundle-'));
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'silent',
      mode: 'production',
      resolve: { alias },
      build: {
        outDir,
        emptyOutDir: true,
        minify: true,
        sourcemap: false,
        lib: { entry: join(root, entry), formats: ['iife'], name: 'MomoCheckout', fileName: () => 'momo-checkout.js' },
      },
    });
    const files = (await readdir(outDir)).filter((file) => file.endsWith('.js'));
    if (files.length !== 1) throw new Error(`expected one .js file from the build, got ${files.join(', ') || 'none'}`);
    return await readFile(join(outDir, files[0]!), 'utf8');
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export async function benchBundleSize(): Promise<Figure[]> {
  const bundle = await buildBrowserBundle();
  const raw = Buffer.byteLength(bundle);
  const gzip = gzipSync(bundle, { level: 9 }).length;
  return [
    { name: 'momo-checkout IIFE (define.ts), minified', value: raw / 1024, unit: 'KB' },
    { name: 'momo-checkout IIFE (define.ts), gzip -9', value: gzip / 1024, unit: 'KB' },
    { name: 'budget left (30 KB gzip)', value: (budgetBytes - gzip) / 1024, unit: 'KB' },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await benchBundleSize()) console.log(`${figure.name.padEnd(48)} ${figure.value.toFixed(2).padStart(8)} ${figure.unit}`);
}
