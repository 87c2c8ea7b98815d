/**
 * `npm run build:console`: the operations console's script, `src/console/define.ts` as one minified
 * IIFE, `dist/browser/momo-console.js`, which the companion serves at `<publicUrl>/console/assets/console.js`
 * (src/server/console/console-assets.ts). An IIFE: a plain `<script src defer>` under `script-src 'self'`.
 *
 * The demo and the tests call `buildConsole(dir)` into a folder of their own and point the companion
 * at it (`consoleAssetsDir`), so they always serve the console as it stands in `src/`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { minifyLitCss } from './minify-lit-css.js';
import { consoleScriptName } from '../src/server/console/console-assets.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildConsole(outDir = join(root, 'dist', 'browser')): Promise<{ path: string; gzipBytes: number }> {
  await build({
    configFile: false,
    root,
    mode: 'production',
    logLevel: 'warn',
    plugins: [minifyLitCss()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      // The element's files may share the folder (npm run build): keep them.
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      sourcemap: false,
      lib: {
        entry: join(root, 'src/console/define.ts'),
        formats: ['iife'],
        name: 'MomoConsole',
        fileName: () => consoleScriptName,
      },
    },
  });
  const path = join(outDir, consoleScriptName);
  return { path, gzipBytes: gzipSync(await readFile(path), { level: 9 }).byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildConsole(process.argv[2]);
  console.log(`wrote ${built.path} (${(built.gzipBytes / 1024).toFixed(1)} KB gzip -9)`);
}
