/**
 * The element's built script-tag files for payment links' pages: the build's `manifest.json`
 * (scripts/build-browser.ts) names the IIFE file with its SRI hash and the language files the
 * element loads beside it. Read once from `elementAssetsDir` (default the package's
 * `dist/browser/`), then served from memory; read as the console's script is (setup/built-files.ts).
 */
import { builtinFs, packageBrowserDir, readOnceFound, type BuiltFilesRead } from '../setup/built-files.js';

export type ElementFiles = BuiltFilesRead<{ script: { file: string; integrity: string }; files: Map<string, Uint8Array> }>;

interface Manifest {
  files: Array<{ file: string; format: string; integrity: string }>;
  languages?: Array<{ file: string }>;
}

export function readElementFiles(dir: string = packageBrowserDir()): () => Promise<ElementFiles> {
  return readOnceFound(() => load(dir.replace(/\/$/, '')));
}

async function load(dir: string): Promise<ElementFiles> {
  const fs = builtinFs();
  if (!fs) return { ok: false, reason: `this runtime has no node:fs to read ${dir}` };
  try {
    const manifest = JSON.parse(await fs.readFile(`${dir}/manifest.json`, 'utf8')) as Manifest;
    const script = manifest.files.find((file) => file.format === 'iife');
    if (!script) return { ok: false, reason: `${dir}/manifest.json names no script-tag (iife) file` };
    const names = [script.file, ...(manifest.languages ?? []).map((language) => language.file)];
    const files = new Map<string, Uint8Array>();
    for (const name of names) files.set(name, new Uint8Array(await fs.readFile(`${dir}/${name}`)));
    return { ok: true, script: { file: script.file, integrity: script.integrity }, files };
  } catch (error) {
    return { ok: false, reason: `the element's files are not in ${dir} (${error instanceof Error ? error.message : String(error)}): run npm run build, or set elementAssetsDir (MOMO_ELEMENT_ASSETS_DIR)` };
  }
}
