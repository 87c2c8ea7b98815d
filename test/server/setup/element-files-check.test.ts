/**
 * Issue 41: `serve` says at start, loudly, which released script-tag file the installed package
 * lacks or holds with other bytes (a shop serving it from node_modules would show no checkout).
 * Checked against a copy of a real build's dist/browser with one file removed and one changed.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { elementFilesCheck, packagedElementFileProblems } from '../../../src/server/setup/element-files-check.js';
import { builtOnce, removeBuild } from '../../ship/built.js';

describe("serve's check of the package's released script-tag files", () => {
  let dir: string;
  before(async () => {
    const build = await builtOnce();
    dir = await mkdtemp(join(tmpdir(), 'momo-element-files-'));
    await copyFile(join(build.outDir, 'manifest.json'), join(dir, 'manifest.json'));
    for (const file of build.released ?? []) await copyFile(join(build.outDir, file.file), join(dir, file.file));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await removeBuild();
  });

  it('says nothing when every released file is there as released', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { released: unknown[] };
    assert.ok(manifest.released.length >= 20, 'the build lists the released files');
    assert.deepEqual(await packagedElementFileProblems(dir), []);
  });

  it('names a file missing and a file changed, what a page meets, and what to do', async () => {
    await rm(join(dir, 'momo-checkout-0.1.0.js'));
    const changed = join(dir, 'momo-checkout-0.2.0.fr.js');
    await writeFile(changed, `${await readFile(changed, 'utf8')}\n`);
    const problems = await packagedElementFileProblems(dir);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0]!, /^momo-checkout-0\.1\.0\.js is missing .*a 404 and shows no checkout\. Reinstall momo-checkout \(npm ci\)/);
    assert.match(problems[1]!, /^momo-checkout-0\.2\.0\.fr\.js .* 6768 bytes.*released as 6767 bytes.*Reinstall/);
  });

  it("fails doctor's check with the same sentences", async () => {
    const check = await elementFilesCheck(dir);
    assert.equal(check.status, 'error');
    assert.match(check.message, /momo-checkout-0\.1\.0\.js is missing .*Reinstall momo-checkout/);
  });

  it('says nothing for a folder that was never built (a work tree run from src/)', async () => {
    assert.deepEqual(await packagedElementFileProblems(join(dir, 'nothing-here')), []);
  });
});
