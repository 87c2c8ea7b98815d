/**
 * The released script-tag files themselves (issue 41): a shop pins `momo-checkout-<version>.js` by
 * name and hash, often straight from `node_modules/momo-checkout/dist/browser/` (docs/backends.md's
 * MOMO_ELEMENT_FILE), so an upgrade that removed that file left the payer a page with no checkout.
 * Every released file (the element and each language file) is kept in releases/files/, byte for
 * byte, and every build copies them all into its dist/browser/ after checking each against its
 * sha384 in releases/script-tag-files.json.
 *
 * The bytes come from the release itself: rebuilt with `npm run build:browser` at each release's
 * commit (0.1.0 at 6043c02, as its note in the record says) and checked against the recorded hash.
 * Never rebuild them here from today's sources: other bytes under a released name are blocked by
 * the browser on every page that pinned it.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readReleasedFiles, type ReleasedFile, type ReleasedFiles } from './released-files.js';
import { pinnedFileProblems } from '../src/server/setup/element-files-check.js';

export const releasedCopiesDir = fileURLToPath(new URL('../releases/files/', import.meta.url));

/** Each recorded file, with the version that released it. */
export function recordedFiles(record: ReleasedFiles): Array<ReleasedFile & { version: string }> {
  return record.releases.flatMap((release) => release.files.map((file) => ({ ...file, version: release.version })));
}

/**
 * What is wrong with the released files in `dir` (releases/files/, or a build's dist/browser):
 * one sentence per file missing or holding other bytes; none when all are there.
 */
export function releasedFileProblems(dir: string, record: ReleasedFiles): Promise<string[]> {
  return pinnedFileProblems(dir, recordedFiles(record));
}

/**
 * Copies every released file into `dir`, after checking releases/files/ holds each as released;
 * throws, naming each file and what to do, when one is missing or changed.
 */
export async function copyReleasedFiles(dir: string, record?: ReleasedFiles): Promise<ReleasedFile[]> {
  const released = record ?? (await readReleasedFiles());
  const problems = await releasedFileProblems(releasedCopiesDir, released);
  if (problems.length > 0) {
    throw new Error(
      `${problems.join('\n')}\nreleases/files/ must hold every released script-tag file byte for byte: restore it from git ` +
        `(git checkout -- releases/files) or rebuild it with npm run build:browser at its release's commit and check its hash.`,
    );
  }
  const files = recordedFiles(released);
  for (const file of files) await copyFile(join(releasedCopiesDir, file.file), join(dir, file.file));
  return files.map(({ file, integrity, bytes }) => ({ file, integrity, bytes }));
}
