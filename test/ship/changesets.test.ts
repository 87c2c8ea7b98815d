/**
 * The release notes other branches add (issue 36): every `.changeset/*.md` parses as changesets
 * reads it, names only this repository's two packages with a semver bump, and says something, so
 * `npm run version-packages` consumes it instead of failing at release time.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseChangesetFile } from '@changesets/parse';

const dir = fileURLToPath(new URL('../../.changeset', import.meta.url));
const packages = ['momo-checkout', '@momo-checkout/element'];

describe('pending changesets', () => {
  it('name the two packages with a bump and say what changed', async () => {
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as { fixed: string[][] };
    assert.deepEqual(config.fixed, [packages], 'both packages released with one version');
    for (const file of (await readdir(dir)).filter((name) => name.endsWith('.md') && name !== 'README.md')) {
      const changeset = parseChangesetFile(await readFile(join(dir, file), 'utf8'));
      assert.ok(changeset.releases.length > 0, `.changeset/${file} names no package`);
      for (const release of changeset.releases) {
        assert.ok(packages.includes(release.name), `.changeset/${file} names ${release.name}: write "momo-checkout" or "@momo-checkout/element"`);
        assert.ok(['major', 'minor', 'patch'].includes(release.type), `.changeset/${file}: ${release.type} is not major, minor or patch`);
      }
      assert.ok(changeset.summary.trim().length > 0, `.changeset/${file} says nothing: write what changed and what a merchant must do`);
    }
  });

  it('refuses what changesets would refuse', () => {
    assert.throws(() => parseChangesetFile('---\n"momo-checkout" minor\n---\n\nNo colon.\n'));
  });
});
