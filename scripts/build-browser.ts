/**
 * `npm run build:browser`: builds the script-tag files into `dist/browser/` (vite.browser.config.ts)
 * and writes `dist/browser/manifest.json` with each file's SRI hash and gzip size, printing them.
 *
 * Tests call `buildBrowser(tempDir)` to check what would be shipped.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { languagesInFiles } from '../src/localize/index.js';
import { browserFileName, languageFileName, scriptTagConfig } from '../vite.browser.config.js';
import type { LanguageFileRef } from '../vite.browser.config.js';
import { describeFile, formatManifest, writeSriManifest } from './sri-manifest.js';
import type { LanguageFile, SriManifest } from './sri-manifest.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const defaultOutDir = join(root, 'dist', 'browser');

export interface BrowserBuild extends SriManifest {
  outDir: string;
  /** Every module bundled into the files (absolute paths, `\0`-prefixed virtual ids), for the scans. */
  moduleIds: string[];
}

/**
 * Each language's file (src/languages/<code>.ts) into `dir`, named by `nameOf`, with its hash: built
 * before the element, whose script-tag file loads them by these names and hashes (issue 32). The
 * first build empties `dir`.
 *
 * An IIFE with no exports: it runs the same under a classic or a module page, and only adds its
 * table (a few KB) to the page; the payer downloads the one their page asks for.
 */
export async function buildLanguageFiles(dir: string, nameOf: (code: string) => string): Promise<LanguageFile[]> {
  const languages: LanguageFile[] = [];
  for (const language of languagesInFiles) {
    const file = nameOf(language);
    const entry = join(root, 'src', 'languages', `${language}.ts`);
    await build({ ...scriptTagConfig({ outDir: dir, entry, emptyOutDir: languages.length === 0, formats: ['iife'], fileName: () => file }), configFile: false });
    languages.push({ ...(await describeFile(dir, file, 'iife')), language });
  }
  return languages;
}

/** What the element's build needs to know of the language files: name and hash, by code. */
export function languageFileRefs(languages: readonly LanguageFile[]): Record<string, LanguageFileRef> {
  return Object.fromEntries(languages.map(({ language, file, integrity }) => [language, { file, integrity }]));
}

export async function buildBrowser(outDir = defaultOutDir): Promise<BrowserBuild> {
  const dir = isAbsolute(outDir) ? outDir : join(root, outDir);
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const languages = await buildLanguageFiles(dir, (code) => languageFileName(code, pkg.version));
  const outputs = await build({
    ...scriptTagConfig({ outDir: dir, emptyOutDir: false, formats: ['iife', 'es'], fileName: (format) => browserFileName(format, pkg.version), languageFiles: languageFileRefs(languages) }),
    configFile: false,
  });
  const moduleIds = new Set<string>();
  for (const output of Array.isArray(outputs) ? outputs : [outputs]) {
    if (!('output' in output)) throw new Error('vite build returned a watcher: build:browser must not run with --watch');
    for (const item of output.output) if (item.type === 'chunk') for (const id of item.moduleIds) moduleIds.add(id);
  }
  const files = [
    await describeFile(dir, browserFileName('iife', pkg.version), 'iife'),
    await describeFile(dir, browserFileName('es', pkg.version), 'es'),
  ];
  const manifest: SriManifest = { name: pkg.name, version: pkg.version, files, languages };
  await writeSriManifest(dir, manifest);
  return { ...manifest, outDir: dir, moduleIds: [...moduleIds].sort() };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildBrowser(process.argv[2]);
  console.log(formatManifest(manifest));
  console.log(`wrote ${join(manifest.outDir, 'manifest.json')}`);
}
