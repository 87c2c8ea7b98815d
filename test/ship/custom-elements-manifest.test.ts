/**
 * `custom-elements.json` is committed and listed in package.json `customElements`; editors and
 * Storybook read it, so a stale one documents attributes or events the element no longer has.
 */
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- the analyzer's CLI module ships no types; `cli()` is its programmatic entry.
import { cli } from '@custom-elements-manifest/analyzer/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Declaration {
  name: string;
  tagName?: string;
  attributes?: Array<{ name: string }>;
  events?: Array<{ name: string }>;
  cssParts?: Array<{ name: string }>;
  cssProperties?: Array<{ name: string }>;
}
interface Manifest {
  modules: Array<{ path: string; declarations?: Declaration[] }>;
}

async function regenerate(): Promise<Manifest> {
  // noWrite: the analyzer returns the manifest instead of overwriting the committed file.
  return (await cli({
    argv: ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet'],
    cwd: root,
    noWrite: true,
  })) as Manifest;
}

describe('custom-elements.json', () => {
  it('is current: regenerating it from the JSDoc gives the committed file (run `npm run manifest` if not)', async () => {
    const committed = await readFile(new URL('custom-elements.json', `file://${root}/`), 'utf8');
    const fresh = `${JSON.stringify(await regenerate(), null, 2)}\n`;
    assert.equal(fresh, committed, 'custom-elements.json is stale: run `npm run manifest` and commit it');
  });

  it('documents the tag, its attributes, events, parts and custom properties', async () => {
    const manifest = JSON.parse(await readFile(new URL('custom-elements.json', `file://${root}/`), 'utf8')) as Manifest;
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'momo-checkout');
    assert.ok(element, 'no declaration with tagName momo-checkout');
    assert.deepEqual(element.attributes?.map((a) => a.name), ['endpoint', 'token', 'lang', 'country', 'expiry-seconds', 'digits', 'remember', 'checkout-view']);
    assert.deepEqual(element.events?.map((e) => e.name), ['momo-state-change', 'momo-submit', 'momo-succeeded', 'momo-failed', 'momo-error']);
    assert.ok((element.cssParts ?? []).some((p) => p.name === 'submit-button'));
    assert.ok((element.cssProperties ?? []).some((p) => p.name === '--momo-color-primary'));
  });

  it('is what package.json `customElements` points at', async () => {
    const pkg = JSON.parse(await readFile(new URL('package.json', `file://${root}/`), 'utf8')) as { customElements?: string };
    assert.equal(pkg.customElements, 'custom-elements.json');
  });
});
