/**
 * `npm run build:browser`: builds the script-tag files into `dist/browser/` (vite.browser.config.ts)
 * and writes `dist/browser/manifest.json` with each file's SRI hash and gzip size, printing them.
 * Every released file (releases/files/, checked against releases/script-tag-files.json) is copied
 * beside them, so an upgrade never removes a file a shop pinned (issue 41).
 *
 * Tests call `buildBrowser(tempDir)` to check what would be shipped.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { languagesInFiles } from '../src/contract/languages.js';
import { copyReleasedFiles } from './released-copies.js';
import { conflictsWithReleased, readReleasedFiles } from './released-files.js';
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

/**
 * The name a build of these sources carries: the package's version, unless that version was
 * released with other bytes (changes made since the release, before the next one is cut): then
 * `<version>-unreleased`, so that a released name never holds other bytes (issue 36) and the
 * released file stays beside it (issue 41). `npm run version-packages` bumps the version first, so
 * a release's own build always carries the release's name.
 */
export function unreleasedVersion(version: string): string {
  return `${version}-unreleased`;
}

async function buildNamed(dir: string, pkg: { name: string; version: string }, fileVersion: string): Promise<BrowserBuild> {
  const languages = await buildLanguageFiles(dir, (code) => languageFileName(code, fileVersion));
  const outputs = await build({
    ...scriptTagConfig({ outDir: dir, emptyOutDir: false, formats: ['iife', 'es'], fileName: (format) => browserFileName(format, fileVersion), languageFiles: languageFileRefs(languages) }),
    configFile: false,
  });
  const moduleIds = new Set<string>();
  for (const output of Array.isArray(outputs) ? outputs : [outputs]) {
    if (!('output' in output)) throw new Error('vite build returned a watcher: build:browser must not run with --watch');
    for (const item of output.output) if (item.type === 'chunk') for (const id of item.moduleIds) moduleIds.add(id);
  }
  const files = [
    await describeFile(dir, browserFileName('iife', fileVersion), 'iife'),
    await describeFile(dir, browserFileName('es', fileVersion), 'es'),
  ];
  return { name: pkg.name, version: pkg.version, files, languages, outDir: dir, moduleIds: [...moduleIds].sort() };
}

export async function buildBrowser(outDir = defaultOutDir): Promise<BrowserBuild> {
  const dir = isAbsolute(outDir) ? outDir : join(root, outDir);
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const record = await readReleasedFiles();
  let built = await buildNamed(dir, pkg, pkg.version);
  // Built again under the unreleased name (the first build's files are emptied away), rather than
  // guessing beforehand: at a release's commit the first build is the released one.
  if (conflictsWithReleased(built, record).length > 0) built = await buildNamed(dir, pkg, unreleasedVersion(pkg.version));
  const released = await copyReleasedFiles(dir, record);
  const manifest: SriManifest = { name: built.name, version: built.version, files: built.files, languages: built.languages, released };
  await writeSriManifest(dir, manifest);
  return { ...manifest, outDir: dir, moduleIds: built.moduleIds };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildBrowser(process.argv[2]);
  console.log(formatManifest(manifest));
  console.log(`kept ${manifest.released?.length ?? 0} released files beside them, byte for byte (releases/files/)`);
  console.log(`wrote ${join(manifest.outDir, 'manifest.json')}`);
}
