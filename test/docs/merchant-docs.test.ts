/**
 * Issue 13 §9: the documents a merchant reads can be followed without documents they do not have.
 * The README and docs/ say each rule of the payment service in words (no "§6.4" pointing into the
 * service's interface document, which is in neither the repository nor the package), show no
 * token format that does not exist (`ck_…`), and link only to files that exist.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

describe('merchant documents', () => {
  for (const file of documents) {
    it(`${file}: no section citations, no made-up token prefix, no broken relative link`, () => {
      const text = readFileSync(join(root, file), 'utf8');
      const lines = text.split('\n');
      assert.deepEqual(lines.filter((line) => line.includes('§')), [], 'say the rule in words');
      assert.deepEqual(lines.filter((line) => /\bck_/.test(line)), [], 'tokens have no ck_ prefix');
      for (const match of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        assert.ok(existsSync(resolve(dirname(join(root, file)), target)), `${file} links to ${target}, which does not exist`);
      }
    });
  }

  it('the README keeps the project and quick start; the merchant guide holds the reference', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.match(readme, /## Quick start for a merchant/);
    assert.match(readme, /## Working on this repository/);
    const guide = readFileSync(join(root, 'docs/merchant-guide.md'), 'utf8');
    for (const topic of ['MOMO_ALLOW_INSECURE_LOCAL_URLS', 'momo_order', 'momo-checkout/store-contract', 'AMOUNT_PRECISION', 'formatSetupChecks']) {
      assert.ok(guide.includes(topic), `the guide covers ${topic}`);
    }
  });
});
