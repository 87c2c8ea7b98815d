/**
 * Every released script-tag file stays in the package (issue 41): shops serve
 * `node_modules/momo-checkout/dist/browser/momo-checkout-<version>.js` themselves, pinned by its
 * hash, so a file missing or changed there is a payer's page with no checkout and nothing in any
 * log. The build lists them in `dist/browser/manifest.json` (`released`); `serve` checks them at
 * start and says loudly which one a page would miss, `doctor` fails on it and the console's
 * overview shows it. Also used by the build's own check (scripts/released-copies.ts).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SetupCheck } from './setup-checks.js';

export interface PinnedFile {
  file: string;
  integrity: string;
  bytes: number;
}

/** The package's `dist/browser/`, whether this runs from `dist/server/setup/` or `src/server/setup/` (tsx). */
export const packageBrowserDir = (): string => new URL('../../../dist/browser/', import.meta.url).pathname;

function sha384(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** One sentence per file of `files` missing from `dir` or holding other bytes; none when all are there. */
export async function pinnedFileProblems(dir: string, files: readonly PinnedFile[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const bytes = await readFile(join(dir, file.file)).catch(() => undefined);
    if (!bytes) problems.push(`${file.file} is missing from ${dir}: a shop page that pins it gets a 404 and shows no checkout.`);
    else if (sha384(bytes) !== file.integrity)
      problems.push(`${file.file} in ${dir} is ${bytes.length} bytes, ${sha384(bytes)}; it was released as ${file.bytes} bytes, ${file.integrity}: a page that pins it blocks it and shows no checkout.`);
  }
  return problems;
}

/** What `serve` says at start: the released files the package's build lists and lacks (none when not built). */
export async function packagedElementFileProblems(dir: string = packageBrowserDir()): Promise<string[]> {
  const manifest = (await readFile(join(dir, 'manifest.json'), 'utf8').then(JSON.parse, () => null)) as { released?: PinnedFile[] } | null;
  const problems = await pinnedFileProblems(dir, manifest?.released ?? []);
  return problems.map((problem) => `${problem} Reinstall momo-checkout (npm ci) and do not prune dist/browser.`);
}

/** `doctor`'s line for the same check: an error, since a page pinning the file shows no checkout. */
export async function elementFilesCheck(dir: string = packageBrowserDir()): Promise<SetupCheck> {
  const problems = await packagedElementFileProblems(dir);
  if (problems.length === 0) return { name: 'released script-tag files', status: 'ok', message: 'every released file a shop may pin is in the package as released.' };
  return { name: 'released script-tag files', status: 'error', message: problems.join(' ') };
}
