/** Builds the script-tag files once per test process, into a temporary folder removed afterwards. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBrowser } from '../../scripts/build-browser.js';
import type { BrowserBuild } from '../../scripts/build-browser.js';

let pending: Promise<BrowserBuild> | undefined;

export function builtOnce(): Promise<BrowserBuild> {
  pending ??= mkdtemp(join(tmpdir(), 'momo-ship-')).then((dir) => buildBrowser(dir));
  return pending;
}

export async function removeBuild(): Promise<void> {
  if (!pending) return;
  const { outDir } = await pending;
  await rm(outDir, { recursive: true, force: true });
}

export async function readBuilt(build: BrowserBuild, format: 'iife' | 'es'): Promise<{ file: string; text: string; bytes: Buffer }> {
  const entry = build.files.find((f) => f.format === format);
  if (!entry) throw new Error(`the build has no ${format} file`);
  const bytes = await readFile(join(build.outDir, entry.file));
  return { file: entry.file, text: bytes.toString('utf8'), bytes };
}
