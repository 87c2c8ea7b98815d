/**
 * The previous release's companion, kept in the repository so the rolling-upgrade tests
 * (test/upgrade/rolling-upgrade-*.test.ts) run it beside this version's on one store
 * without the network and without git history (CI may clone shallow): a release's migrations must
 * keep the previous release's processes working (docs/releasing.md, "Migrations").
 *
 * Builds the server code of a release commit (`git archive`: only what the commit holds, never the
 * work tree) with the repository's own TypeScript, and keeps what `dist/server/cli.js serve` loads:
 * the files its static and literal dynamic imports reach, its package.json and a `companion.json`
 * saying where it came from. No declarations or source maps. The archive is deterministic (names
 * sorted, the commit's time, owner 0, gzip without a name or time): the same commit gives the same
 * bytes. Only one release is kept: the older archive in releases/companions/ is removed.
 *
 * Its dependencies are not packed: the test links the repository's node_modules, and checks that the
 * release's package.json asks for the same versions (an upgrade that changes one must pack them).
 *
 * Usage: `tsx scripts/previous-release.ts [<commit>]` (default HEAD: run it right after the release
 * commit, docs/releasing.md "Cutting a release").
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const companionsDir = join(root, 'releases', 'companions');
/** Where a built release's server code starts (what `npx momo-checkout serve` runs). */
export const companionEntry = 'dist/server/cli.js';

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** Relative imports of a compiled module: `from './x.js'`, `import './x.js'`, `import('./x.js')`. */
const importPattern = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every file of `dir` that `entry` reaches through relative imports (static, or dynamic with a literal name). */
export async function importClosure(dir: string, entry: string): Promise<string[]> {
  const seen = new Set<string>();
  const walk = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith('.js')) return;
    const text = await readFile(join(dir, file), 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const target = relative(dir, resolve(dir, dirname(file), match[1]!));
      if (!existsSync(join(dir, target))) throw new Error(`${file} imports ${match[1]}, which the build did not write: the companion would not start.`);
      await walk(target);
    }
  };
  await walk(entry);
  return [...seen].sort();
}

export async function buildCompanion(commit: string): Promise<{ file: string; version: string; bytes: number; files: number }> {
  const full = git('rev-parse', '--verify', `${commit}^{commit}`).trim();
  const pkg = JSON.parse(git('show', `${full}:package.json`)) as { version: string };
  const time = git('show', '-s', '--format=%ct', full).trim();
  const work = await mkdtemp(join(tmpdir(), 'momo-previous-release-'));
  try {
    const source = join(work, 'source');
    await mkdir(source);
    execFileSync('sh', ['-c', `git archive ${full} src tsconfig.json tsconfig.build.json package.json | tar -x -C "${source}"`], { cwd: root, stdio: 'inherit' });
    // The release's imports resolve to this repository's packages (the same versions: the test checks).
    await symlink(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'], {
      cwd: source,
      stdio: 'inherit',
    });
    const files = await importClosure(source, companionEntry);

    const name = `momo-checkout-${pkg.version}`;
    const staging = join(work, name);
    for (const file of [...files, 'package.json']) {
      await mkdir(dirname(join(staging, file)), { recursive: true });
      await writeFile(join(staging, file), await readFile(join(source, file)));
    }
    await writeFile(
      join(staging, 'companion.json'),
      `${JSON.stringify({ version: pkg.version, commit: full, entry: companionEntry, madeBy: 'scripts/previous-release.ts' }, null, 2)}\n`,
    );

    await mkdir(companionsDir, { recursive: true });
    for (const old of await readdir(companionsDir)) if (old.endsWith('.tgz')) await rm(join(companionsDir, old));
    const file = join(companionsDir, `${name}.tgz`);
    execFileSync(
      'sh',
      ['-c', `tar --sort=name --mtime=@${time} --owner=0 --group=0 --numeric-owner -cf - -C "${work}" "${name}" | gzip -n -9 > "${file}"`],
      { stdio: 'inherit' },
    );
    return { file, version: pkg.version, bytes: (await readFile(file)).length, files: files.length + 2 };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildCompanion(process.argv[2] ?? 'HEAD');
  console.log(`${relative(root, built.file)}: momo-checkout ${built.version}'s companion, ${built.files} files, ${built.bytes} bytes`);
}
