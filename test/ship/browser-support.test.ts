/**
 * Issue 33: the script-tag files hold to the declared browser support matrix (the `browserslist`
 * of package.json and packages/element/package.json, docs/embedding.md "Browser support"): their
 * syntax, the CSS and the APIs they use, each looked up in MDN's compat data for the oldest
 * version of every browser in the matrix. A feature that one of them lacks fails here, with the
 * browser named, before a tenth of payers meet a blank checkout.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtFeatures, type BuiltFeatures } from './built-features.js';
import { builtOnce, readBuilt, removeBuild } from './built.js';
import { compatAt, missingIn, partialIn, supportMatrix } from './support-matrix.js';
import type { BrowserBuild } from '../../scripts/build-browser.js';

const readJson = async (path: string) => JSON.parse(await readFile(new URL(path, import.meta.url), 'utf8')) as { browserslist?: string[] };

/**
 * Member names read off the code's own objects that happen to match a platform member: Lit reads
 * `options.capture` of its event listener options (not HTMLInputElement's `capture` attribute).
 */
const notPlatformMembers = new Set(['capture']);

describe('browser support matrix (issue 33)', () => {
  let build: BrowserBuild;
  let matrix: Map<string, number>;
  const scans = new Map<string, BuiltFeatures>();

  before(async () => {
    const root = await readJson('../../package.json');
    assert.ok(root.browserslist && root.browserslist.length > 0, 'package.json declares a browserslist');
    matrix = supportMatrix(root.browserslist);
    build = await builtOnce();
    for (const file of build.files) {
      const { text } = await readBuilt(build, file.format);
      scans.set(file.file, builtFeatures(text, file.format === 'es' ? 'module' : 'script'));
    }
    for (const language of build.languages) scans.set(language.file, builtFeatures(await readFile(join(build.outDir, language.file), 'utf8'), 'script'));
  });
  after(removeBuild);

  it('the element package declares the same matrix as the root package, with the browsers docs/embedding.md names', async () => {
    const root = await readJson('../../package.json');
    const element = await readJson('../../packages/element/package.json');
    assert.deepEqual(element.browserslist, root.browserslist);
    assert.deepEqual([...matrix.keys()].sort(), ['chrome', 'chrome_android', 'edge', 'firefox', 'safari', 'safari_ios', 'samsunginternet_android']);
    const docs = await readFile(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
    for (const query of root.browserslist!) assert.ok(docs.includes(`\`${query}\``), `docs/embedding.md names \`${query}\``);
  });

  it('the scan sees what the element is known to use (so that a silent scanner cannot pass)', () => {
    const iife = [...scans].find(([file]) => file.endsWith('.js') && !/\.\w\w\.js$/.test(file))![1];
    for (const path of ['css.at-rules.container', 'css.properties.container-type', 'css.selectors.has', 'api.TextDecoderStream', 'javascript.builtins.Intl.NumberFormat', 'javascript.builtins.Intl.DisplayNames', 'javascript.operators.optional_chaining']) {
      assert.ok(iife.required.has(path), `the IIFE's scan finds ${path}`);
    }
    assert.ok(iife.members.has('pipeThrough'), 'the IIFE pipes the status stream (ReadableStream.pipeThrough)');
    assert.ok(iife.cssText.length > 1000, 'the element\'s stylesheet was found');
  });

  it('every syntax, CSS feature and API of each built file works in the oldest version of every browser in the matrix', () => {
    const problems: string[] = [];
    const partial: string[] = [];
    for (const [file, scan] of scans) {
      for (const path of [...scan.required].sort()) {
        const node = compatAt(path);
        if (!node) {
          // A CSS name MDN does not know is a typo or a non-standard property: worth a look either way.
          if (path.startsWith('css.')) problems.push(`${file}: ${path} is not in MDN's compat data`);
          continue;
        }
        const missing = missingIn(node, matrix);
        if (missing.length > 0) problems.push(`${file}: ${path} is missing in ${missing.join(', ')}`);
        const partly = partialIn(node, matrix);
        if (partly.length > 0) partial.push(`${path} (partial in ${partly.join(', ')})`);
      }
      for (const [name, paths] of scan.members) {
        if (notPlatformMembers.has(name)) continue;
        if (!paths.some((path) => missingIn(compatAt(path)!, matrix).length === 0)) {
          problems.push(`${file}: .${name} (${paths.join(' or ')}) is missing in ${missingIn(compatAt(paths[0]!)!, matrix).join(', ')}`);
        }
      }
    }
    if (partial.length > 0) console.log(`partly supported (MDN): ${[...new Set(partial)].join('; ')}`);
    assert.deepEqual(problems, []);
  });
});
