/**
 * Subresource Integrity and size of each built browser file (issue 5: "the build prints (and writes
 * to a manifest file) its sha384 Subresource Integrity hash"). node:crypto computes the digest the
 * browser checks: `sha384-` + base64 of the SHA-384 of the exact bytes served.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BuiltFile {
  /** File name inside the output folder, e.g. `momo-checkout-0.1.0.js`. */
  file: string;
  /** `iife` for a plain `<script>`, `es` for `<script type="module">`. */
  format: 'iife' | 'es';
  /** The `integrity` attribute's value. */
  integrity: string;
  bytes: number;
  /** gzip -9 size: what a payer downloads from a CDN that compresses. */
  gzipBytes: number;
}

/** A language's file (issue 23): the page includes it, with its own `integrity`, after the script-tag file. */
export interface LanguageFile extends BuiltFile {
  /** The `lang` it serves, e.g. `pt` (for `pt`, `pt-MZ`, `pt-AO`...). */
  language: string;
}

export interface SriManifest {
  name: string;
  version: string;
  /** The element: the IIFE and the ES module, English and French inside. */
  files: BuiltFile[];
  languages: LanguageFile[];
  /**
   * Every released file copied beside them, byte for byte (releases/files/): a page that pinned
   * any of them keeps working after an upgrade (issue 41). Absent in the manifests of 0.4.0 and earlier.
   */
  released?: Array<{ file: string; integrity: string; bytes: number }>;
}

export const manifestFileName = 'manifest.json';

/** The `integrity` value for these bytes. */
export function sriOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

export async function describeFile(dir: string, file: string, format: BuiltFile['format']): Promise<BuiltFile> {
  const bytes = await readFile(join(dir, file));
  return { file, format, integrity: sriOf(bytes), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

export async function writeSriManifest(dir: string, manifest: SriManifest): Promise<string> {
  const path = join(dir, manifestFileName);
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}

export async function readSriManifest(dir: string): Promise<SriManifest> {
  return JSON.parse(await readFile(join(dir, manifestFileName), 'utf8')) as SriManifest;
}

/** One line per file, for the build's output (the hash is public: it is in every merchant's page). */
export function formatManifest(manifest: SriManifest): string {
  return [...manifest.files, ...manifest.languages]
    .map((f) => `${f.file.padEnd(28)} ${(f.bytes / 1024).toFixed(2).padStart(7)} KB  gzip ${(f.gzipBytes / 1024).toFixed(2).padStart(6)} KB  ${f.integrity}`)
    .join('\n');
}
