/**
 * The commands of the released script-tag files' record (scripts/released-files.ts):
 *
 * - `tsx scripts/released-files-command.ts check [dir]` (`npm run release:check`, in `prepack`): a
 *   built dist/browser (default the package's) gives no released name other bytes and holds every
 *   released file;
 * - `tsx scripts/released-files-command.ts record` (`npm run version-packages`): builds into a
 *   temporary folder and records the new version's files, keeping their bytes in releases/files/.
 *
 * A file of its own: the build imports the record, and the record's command imports the build.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowser } from './build-browser.js';
import { releasedCopiesDir, releasedFileProblems } from './released-copies.js';
import { builtFiles, conflictsWithReleased, readReleasedFiles, releasedFilesPath, withRelease } from './released-files.js';
import { readSriManifest } from './sri-manifest.js';

const root = fileURLToPath(new URL('..', import.meta.url));

async function check(dir: string): Promise<number> {
  const record = await readReleasedFiles();
  const problems = [...conflictsWithReleased(await readSriManifest(dir), record), ...(await releasedFileProblems(dir, record))];
  for (const problem of problems) console.error(problem);
  if (problems.length === 0) console.log(`released-files: every released script-tag file is in ${dir}, byte for byte, and no released name holds other bytes`);
  return problems.length === 0 ? 0 : 1;
}

async function record(): Promise<number> {
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
    for (const file of builtFiles(manifest)) await copyFile(join(dir, file.file), join(releasedCopiesDir, file.file));
    console.log(`released-files: ${manifest.version}'s script-tag files recorded in releases/script-tag-files.json and kept in releases/files/`);
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const [command, dir] = process.argv.slice(2);
const run = command === 'check' ? check(dir ?? join(root, 'dist', 'browser')) : command === 'record' ? record() : undefined;
if (run) {
  try {
    process.exitCode = await run;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
} else {
  console.error('Usage: tsx scripts/released-files-command.ts check [dist/browser folder] | record');
  process.exitCode = 2;
}
