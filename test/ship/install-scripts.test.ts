/**
 * Issue 41: npm 11 listed better-sqlite3's `node-gyp rebuild` as "not yet covered by allowScripts"
 * while the README said the install runs no install script. The driver loads its prebuilt binary
 * (prebuilds/<platform>-<arch>.node), so the script is declared not needed (`allowScripts:
 * { "better-sqlite3": false }`, what `npm install-scripts deny` writes), and the README says how a
 * shop does the same. `npm install-scripts ls` is npm's own reading of the declaration.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Issue 53: esbuild's and rs-module-lexer's postinstall were listed too on a fresh `npm ci`; their
// optional platform packages carry the binaries, so they are denied beside better-sqlite3's.
it("npm lists no install script to review: better-sqlite3's, esbuild's and rs-module-lexer's are declared not needed", () => {
  const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: root, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /No packages with unreviewed install scripts/, listed.stdout + listed.stderr);
});

it('a prebuilt binary for this platform ships in the driver\'s package, and the driver loads', () => {
  const driver = join(root, 'node_modules/better-sqlite3');
  assert.ok(existsSync(join(driver, 'prebuilds', `${process.platform}-${process.arch}.node`)), 'a prebuilt binary for this platform ships in the package');
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => { prepare(sql: string): { get(): unknown }; close(): void };
  const db = new Database(':memory:');
  assert.deepEqual(db.prepare('select 1 as one').get(), { one: 1 });
  db.close();
});

it('the README tells a shop the same', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  assert.match(readme, /npm install-scripts deny better-sqlite3/);
  assert.doesNotMatch(readme, /runs no install script/);
});
