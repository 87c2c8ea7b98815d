/**
 * The record of every released script-tag file (issue 36: "a script-tag file name that can never
 * hold two contents"). A page pins a file by its name and its `integrity` hash; if a later build
 * wrote other bytes under a released name, the browser would block the script on every such page.
 * releases/script-tag-files.json keeps each released file's name and hash, in the repository.
 *
 * - `npm run version-packages` (changeset version) records the new version's files: cutting a
 *   release is what freezes its names.
 * - `npm run release:check` (in `prepack`) and test/ship/released-files.test.ts refuse a build that
 *   gives a released name other bytes, saying how to release the change under a new name, or that
 *   lacks a released file (issue 41: every released file ships in every later package, copied from
 *   releases/files/ by the build, scripts/released-copies.ts).
 *
 * Usage: `tsx scripts/released-files.ts check [dir]` (a built dist/browser, default the package's),
 * `tsx scripts/released-files.ts record` (builds into a temporary folder and records its files).
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSriManifest, type SriManifest } from './sri-manifest.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const releasedFilesPath = join(root, 'releases', 'script-tag-files.json');

export interface ReleasedFile {
  file: string;
  integrity: string;
  bytes: number;
}

export interface Release {
  version: string;
  /** When the release was cut (YYYY-MM-DD). */
  date: string;
  files: ReleasedFile[];
  /** How the entry was made, when not by `record` at the release (e.g. rebuilt from history). */
  note?: string;
}

export interface ReleasedFiles {
  about: string;
  releases: Release[];
}

export async function readReleasedFiles(path = releasedFilesPath): Promise<ReleasedFiles> {
  return JSON.parse(await readFile(path, 'utf8')) as ReleasedFiles;
}

/** Every file a build made: the script-tag files and the language files. */
function builtFiles(manifest: SriManifest): ReleasedFile[] {
  return [...manifest.files, ...(manifest.languages ?? [])].map(({ file, integrity, bytes }) => ({ file, integrity, bytes }));
}

/**
 * What in this build would change a released file under its name: one sentence per file, saying
 * what to do; none when every built file is new or byte for byte what was released.
 */
export function conflictsWithReleased(manifest: SriManifest, record: ReleasedFiles): string[] {
  const released = new Map<string, { version: string; file: ReleasedFile }>();
  for (const release of record.releases) for (const file of release.files) released.set(file.file, { version: release.version, file });
  const problems: string[] = [];
  for (const built of builtFiles(manifest)) {
    const earlier = released.get(built.file);
    if (!earlier || earlier.file.integrity === built.integrity) continue;
    problems.push(
      `${built.file} was released in ${earlier.version} as ${earlier.file.bytes} bytes, ${earlier.file.integrity} (releases/script-tag-files.json); ` +
        `this build gives ${built.bytes} bytes, ${built.integrity}. Pages pin the released hash: release the change under a new version ` +
        `(a .changeset/*.md saying what changed, then npm run version-packages), never under the old name.`,
    );
  }
  return problems;
}

/** The record with this build's version added; throws if it would change a released file. */
export function withRelease(record: ReleasedFiles, manifest: SriManifest, date: string): ReleasedFiles {
  const problems = conflictsWithReleased(manifest, record);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  if (record.releases.some((release) => release.version === manifest.version)) return record;
  return { ...record, releases: [...record.releases, { version: manifest.version, date, files: builtFiles(manifest) }] };
}

async function check(dir: string): Promise<number> {
  const { releasedFileProblems } = await import('./released-copies.js');
  const record = await readReleasedFiles();
  const problems = [...conflictsWithReleased(await readSriManifest(dir), record), ...(await releasedFileProblems(dir, record))];
  for (const problem of problems) console.error(problem);
  if (problems.length === 0) console.log(`released-files: every released script-tag file is in ${dir}, byte for byte, and no released name holds other bytes`);
  return problems.length === 0 ? 0 : 1;
}

async function record(): Promise<number> {
  // Imported here: `check` needs no Vite.
  const { buildBrowser } = await import('./build-browser.js');
  const dir = await mkdtemp(join(tmpdir(), 'momo-release-'));
  try {
    const manifest = await buildBrowser(dir);
    const current = await readReleasedFiles();
    if (current.releases.some((release) => release.version === manifest.version)) {
      console.log(`released-files: ${manifest.version} is already recorded; a change since it ships under the next version (add a changeset)`);
      return 0;
    }
    const updated = withRelease(current, manifest, new Date().toISOString().slice(0, 10));
    await writeFile(releasedFilesPath, `${JSON.stringify(updated, null, 2)}\n`);
    // The release's own bytes, kept for every later package (scripts/released-copies.ts).
    const { releasedCopiesDir } = await import('./released-copies.js');
    for (const file of builtFiles(manifest)) await copyFile(join(dir, file.file), join(releasedCopiesDir, file.file));
    console.log(`released-files: ${manifest.version}'s script-tag files recorded in releases/script-tag-files.json and kept in releases/files/`);
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// No top-level await here: `record` imports build-browser.ts, which imports this module back; a
// module still awaiting at its top level never finishes loading for that import, so the release's
// `record` waited forever and exited with 13 (unsettled top-level await) without recording.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [command, dir] = process.argv.slice(2);
  const run = command === 'check' ? check(dir ?? join(root, 'dist', 'browser')) : command === 'record' ? record() : undefined;
  if (run) {
    run.then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      },
    );
  } else {
    console.error('Usage: tsx scripts/released-files.ts check [dist/browser folder] | record');
    process.exitCode = 2;
  }
}
