/**
 * The names a merchant copies carry the release they read about (issue 36): every script-tag file
 * name and CDN URL in the docs and shop examples, package.json's unpkg/jsdelivr and the framework
 * examples' dependencies say package.json's version (`npm run version-packages` rewrites them).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { packageVersion, staleVersionNames } from '../../scripts/version-names.js';

describe('versioned names', () => {
  it("name package.json's version everywhere a merchant copies them", () => {
    const stale = staleVersionNames();
    assert.deepEqual(stale, [], `run npx tsx scripts/version-names.ts:\n${stale.join('\n')}`);
  });

  it('finds a name that says another version', () => {
    assert.ok(staleVersionNames('9.9.9').some((line) => line.startsWith('package.json:') && line.endsWith(`momo-checkout-${packageVersion()}`)));
  });

  it('gives both packages one version: their script-tag files have one name', async () => {
    const element = JSON.parse(await readFile(new URL('../../packages/element/package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(element.version, packageVersion());
  });
});
