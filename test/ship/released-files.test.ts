/**
 * A script-tag file name never holds two contents (issue 36): the files this build makes are
 * checked against releases/script-tag-files.json, the record of every released file's name and
 * sha384 hash. A build that would give a released name other bytes fails, saying how to release
 * the change under a new version instead.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { conflictsWithReleased, readReleasedFiles, withRelease } from '../../scripts/released-files.js';
import { builtOnce, removeBuild } from './built.js';

const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('released script-tag files', () => {
  after(removeBuild);

  it('this build changes no released file under its name', async () => {
    const problems = conflictsWithReleased(await builtOnce(), await readReleasedFiles());
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  it("the package's version is released: its files are in the record, each once", async () => {
    const record = await readReleasedFiles();
    const release = record.releases.find((entry) => entry.version === pkg.version);
    assert.ok(release, `version ${pkg.version} is not in releases/script-tag-files.json: cut releases with npm run version-packages, which records them`);
    const built = await builtOnce();
    assert.deepEqual(release.files.map((file) => file.file).sort(), [...built.files, ...built.languages].map((file) => file.file).sort());
    const names = record.releases.flatMap((entry) => entry.files.map((file) => file.file));
    assert.equal(new Set(names).size, names.length, 'no name recorded twice');
  });

  it('keeps 0.1.0 as the first shops pinned it', async () => {
    const first = (await readReleasedFiles()).releases.find((entry) => entry.version === '0.1.0');
    assert.deepEqual(first?.files.find((file) => file.file === 'momo-checkout-0.1.0.js'), {
      file: 'momo-checkout-0.1.0.js',
      integrity: 'sha384-JwptCHkpGd/Vb3V8dQVltLiTtblcYuDx/9ZABLD+K39nC2fuwNDeuuo3t1NrtnpQ',
      bytes: 70642,
    });
  });

  it('refuses one changed byte under a released name, and recording it', async () => {
    const built = await builtOnce();
    const record = withRelease({ about: '', releases: [] }, built, '2026-11-26');
    const changed = { ...built, files: built.files.map((file, index) => (index === 0 ? { ...file, integrity: 'sha384-other', bytes: file.bytes + 1 } : file)) };
    const problems = conflictsWithReleased(changed, record);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, new RegExp(`^${built.files[0]!.file.replace(/\./g, '\\.')} was released in ${built.version} .*npm run version-packages`));
    assert.throws(() => withRelease(record, changed, '2026-11-27'), /was released in/);
    assert.equal(withRelease(record, built, '2026-11-27'), record, 'the same bytes again: nothing to add');
  });
});
