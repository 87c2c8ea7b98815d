/**
 * A script-tag file name never holds two contents (issue 36): the files this build makes are
 * checked against releases/script-tag-files.json, the record of every released file's name and
 * sha384 hash. A build that would give a released name other bytes fails, saying how to release
 * the change under a new version instead. And no released file ever leaves the package (issue 41):
 * releases/files/ keeps each, byte for byte, and every build ships them all beside its own.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { unreleasedVersion } from '../../scripts/build-browser.js';
import { recordedFiles, releasedCopiesDir, releasedFileProblems } from '../../scripts/released-copies.js';
import { conflictsWithReleased, readReleasedFiles, withRelease } from '../../scripts/released-files.js';
import { sriOf } from '../../scripts/sri-manifest.js';
import { builtOnce, removeBuild } from './built.js';

const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('released script-tag files', () => {
  after(removeBuild);

  it('this build changes no released file under its name', async () => {
    const problems = conflictsWithReleased(await builtOnce(), await readReleasedFiles());
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  it("the package's version is released: its files are in the record, each once, and the build's own files are those or named unreleased", async () => {
    const record = await readReleasedFiles();
    const release = record.releases.find((entry) => entry.version === pkg.version);
    assert.ok(release, `version ${pkg.version} is not in releases/script-tag-files.json: cut releases with npm run version-packages, which records them`);
    const built = await builtOnce();
    const own = [...built.files, ...built.languages];
    const names = record.releases.flatMap((entry) => entry.files.map((file) => file.file));
    assert.equal(new Set(names).size, names.length, 'no name recorded twice');
    const releasedNames = release.files.map((file) => file.file).sort();
    if (own.every((file) => names.includes(file.file))) {
      // At the release's commit: the build is the release.
      assert.deepEqual(own.map((file) => file.file).sort(), releasedNames);
    } else {
      // Changes since the release: under <version>-unreleased until the next release names them.
      assert.deepEqual(own.map((file) => file.file).sort(), releasedNames.map((name) => name.replace(pkg.version, unreleasedVersion(pkg.version))));
    }
  });

  it('releases/files/ holds every released file, byte for byte as recorded', async () => {
    const record = await readReleasedFiles();
    assert.deepEqual(await releasedFileProblems(releasedCopiesDir, record), []);
    assert.ok(recordedFiles(record).length >= 20, 'the 20 files of 0.1.0 to 0.4.0 at least');
  });

  it('the build ships every released file beside its own, byte for byte (a page that pinned any keeps working after an upgrade)', async () => {
    const record = await readReleasedFiles();
    const built = await builtOnce();
    assert.deepEqual(await releasedFileProblems(built.outDir, record), []);
    assert.deepEqual(built.released?.map((file) => file.file).sort(), recordedFiles(record).map((file) => file.file).sort(), 'manifest.json lists them');
  });

  it('finds a released file missing or changed, naming it and what a page would meet', async () => {
    const record = await readReleasedFiles();
    const dir = await mkdtemp(join(tmpdir(), 'momo-released-'));
    try {
      for (const file of recordedFiles(record)) await copyFile(join(releasedCopiesDir, file.file), join(dir, file.file));
      assert.deepEqual(await releasedFileProblems(dir, record), []);
      await rm(join(dir, 'momo-checkout-0.1.0.js'));
      const changed = Buffer.from(await readFile(join(dir, 'momo-checkout-0.3.0.pt.js')));
      changed[0] = changed[0]! ^ 1;
      await writeFile(join(dir, 'momo-checkout-0.3.0.pt.js'), changed);
      const problems = await releasedFileProblems(dir, record);
      assert.equal(problems.length, 2, problems.join('\n'));
      assert.match(problems[0]!, /^momo-checkout-0\.1\.0\.js is missing .*a 404/);
      assert.match(problems[1]!, new RegExp(`^momo-checkout-0\\.3\\.0\\.pt\\.js .* ${sriOf(changed).replace(/[+/]/g, '\\$&')}; it was released as 6359 bytes`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
