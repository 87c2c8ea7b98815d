/**
 * The previous release's companion (releases/companions/momo-checkout-<version>.tgz, made by
 * scripts/previous-release.ts at each release), unpacked into a temporary folder for a test: its
 * `dist/server/cli.js` to run as a child process, and its modules to import (its own migration
 * check, its migrations).
 *
 * Its imports of packages resolve to this repository's node_modules through a link: the archive
 * packs no dependencies. That holds only while this version still depends on every package the
 * release did, at the very version it asked for (a package added since is never imported by it), so
 * `unpackPreviousRelease` fails when one differs or is gone (then the script must pack the
 * release's own).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const companionsDir = join(root, 'releases', 'companions');

export interface PreviousRelease {
  version: string;
  /** The release's commit, as companion.json records it. */
  commit: string;
  /** The unpacked release: `dir/dist/server/cli.js`, `dir/package.json`. */
  dir: string;
  /** The command line that runs `momo-checkout <args>` of that release. */
  cli: string;
  /** Imports one of its compiled modules by its path under dist/ (`server/stores/postgres/postgres-migrate.js`). */
  load<Module>(path: string): Promise<Module>;
  remove(): void;
}

type Manifest = { dependencies?: Record<string, string> };

export function unpackPreviousRelease(): PreviousRelease {
  const archives = readdirSync(companionsDir).filter((name) => name.endsWith('.tgz'));
  if (archives.length !== 1) {
    throw new Error(`releases/companions/ holds ${archives.length} archives (${archives.join(', ')}); it keeps the previous release's only: run tsx scripts/previous-release.ts <release commit>.`);
  }
  const temp = mkdtempSync(join(tmpdir(), 'momo-previous-'));
  execFileSync('tar', ['-xzf', join(companionsDir, archives[0]!), '-C', temp]);
  const dir = join(temp, archives[0]!.replace(/\.tgz$/, ''));
  const about = JSON.parse(readFileSync(join(dir, 'companion.json'), 'utf8')) as { version: string; commit: string; entry: string };
  const theirs = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).dependencies ?? {};
  const ours = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest).dependencies ?? {};
  const differ = Object.keys(theirs).filter((name) => theirs[name] !== ours[name]);
  if (differ.length > 0) {
    rmSync(temp, { recursive: true, force: true });
    throw new Error(
      `momo-checkout ${about.version}'s dependencies differ from this version's (${differ.map((name) => `${name} ${theirs[name] ?? '-'} -> ${ours[name] ?? '-'}`).join(', ')}): ` +
        "its companion can no longer borrow this repository's node_modules; pack its own dependencies in scripts/previous-release.ts.",
    );
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    version: about.version,
    commit: about.commit,
    dir,
    cli: join(dir, about.entry),
    load: async <Module>(path: string) => (await import(join(dir, 'dist', path))) as Module,
    remove: () => rmSync(temp, { recursive: true, force: true }),
  };
}
