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
 * The record and its rules; the `check` and `record` commands are scripts/released-files-command.ts.
 */
import { readFile } from 'node:fs/promises';
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
export function builtFiles(manifest: SriManifest): ReleasedFile[] {
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
