/**
 * The element's built script-tag files for payment links' pages: the build's `manifest.json`
 * (scripts/build-browser.ts) names the IIFE file with its SRI hash and the language files the
 * element loads beside it. Read once from `elementAssetsDir` (default the package's
 * `dist/browser/`), then served from memory; read as the console's script is (setup/built-files.ts).
 *
 * Each file is compressed once when read (brotli at its best quality and gzip, off the event loop),
 * as the demo serves its own (demo/assets.ts): a payer opening a link on Slow 3G waits for the
 * script before the number field takes typing, and 75 KB raw is about 23 KB brotli.
 */
import type * as NodeZlib from 'node:zlib';
import { nodeBuiltin } from '../../contract/node-builtin.js';
import { builtinFs, packageBrowserDir, readOnceFound, type BuiltFilesRead } from '../setup/built-files.js';

/** A file's bytes as built, and compressed where the runtime has node:zlib. */
export interface EncodedFile {
  body: Uint8Array;
  br?: Uint8Array;
  gzip?: Uint8Array;
}

export type ElementFiles = BuiltFilesRead<{ script: { file: string; integrity: string }; files: Map<string, EncodedFile> }>;

interface Manifest {
  files: Array<{ file: string; format: string; integrity: string }>;
  languages?: Array<{ file: string }>;
}

export function readElementFiles(dir: string = packageBrowserDir()): () => Promise<ElementFiles> {
  return readOnceFound(() => load(dir.replace(/\/$/, '')));
}

async function encoded(body: Uint8Array): Promise<EncodedFile> {
  const zlib = nodeBuiltin<typeof NodeZlib>('node:zlib');
  if (!zlib) return { body };
  const run = (compress: (input: Uint8Array, options: object, done: (error: Error | null, result: Uint8Array) => void) => void, options: object) =>
    new Promise<Uint8Array>((resolve, reject) => compress(body, options, (error, result) => (error ? reject(error) : resolve(new Uint8Array(result)))));
  const { constants } = zlib;
  const [br, gzip] = await Promise.all([
    run(zlib.brotliCompress, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    run(zlib.gzip, { level: 9 }),
  ]);
  return { body, br, gzip };
}

async function load(dir: string): Promise<ElementFiles> {
  const fs = builtinFs();
  if (!fs) return { ok: false, reason: `this runtime has no node:fs to read ${dir}` };
  try {
    const manifest = JSON.parse(await fs.readFile(`${dir}/manifest.json`, 'utf8')) as Manifest;
    const script = manifest.files.find((file) => file.format === 'iife');
    if (!script) return { ok: false, reason: `${dir}/manifest.json names no script-tag (iife) file` };
    const names = [script.file, ...(manifest.languages ?? []).map((language) => language.file)];
    const files = new Map<string, EncodedFile>();
    for (const name of names) files.set(name, await encoded(new Uint8Array(await fs.readFile(`${dir}/${name}`))));
    return { ok: true, script: { file: script.file, integrity: script.integrity }, files };
  } catch (error) {
    return { ok: false, reason: `the element's files are not in ${dir} (${error instanceof Error ? error.message : String(error)}): run npm run build, or set elementAssetsDir (MOMO_ELEMENT_ASSETS_DIR)` };
  }
}
