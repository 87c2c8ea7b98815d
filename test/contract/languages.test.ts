/**
 * The one list of languages (src/contract/languages.ts) and the files each entry stands for: a
 * language listed without its texts, or texts (a language file, a console table) without an entry,
 * would ship half a language, so both ways fail here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { consoleLanguages, firstSpoken, languageCodes, languageName, languagesInFiles, nextConsoleLanguage } from '../../src/contract/languages.js';

const src = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'src');
const codesIn = (dir: string, pattern: RegExp) => readdirSync(join(src, dir)).flatMap((name) => pattern.exec(name)?.slice(1, 2) ?? []).sort();

describe('the list of languages', () => {
  it('has English first, and every other language in a file of its own', () => {
    assert.equal(languageCodes[0], 'en');
    assert.deepEqual(languagesInFiles, languageCodes.slice(1));
  });

  it('has, for each language in a file, its table and its file entry, and no file entry without a listing', () => {
    for (const code of languagesInFiles) assert.ok(existsSync(join(src, 'localize', `${code}.ts`)), `src/localize/${code}.ts holds ${code}'s table`);
    assert.deepEqual(codesIn('languages', /^([a-z]{2,3})\.ts$/), [...languagesInFiles].sort());
  });

  it('has a console table for each console language, and none unlisted', () => {
    assert.deepEqual(codesIn('console', /^console-text-([a-z]{2,3})\.ts$/), [...consoleLanguages].sort());
  });

  it('names each language in itself, for the link that switches to it', () => {
    assert.equal(languageName('fr'), 'Français');
    assert.equal(languageName('en'), 'English');
    assert.equal(nextConsoleLanguage('en'), 'fr');
    assert.equal(nextConsoleLanguage('fr'), 'en');
  });
});

describe('firstSpoken', () => {
  it('takes the first spoken language in the order asked, by its primary subtag', () => {
    assert.equal(firstSpoken(consoleLanguages, ['de-DE', 'fr-CA;q=0.8', 'en;q=0.5']), 'fr');
    assert.equal(firstSpoken(languageCodes, ['pt_MZ']), 'pt');
  });

  it('is English when nothing asked is spoken, and never takes a longer code for a shorter one', () => {
    assert.equal(firstSpoken(consoleLanguages, ['de', 'pt-BR']), 'en');
    assert.equal(firstSpoken(consoleLanguages, ['frr']), 'en');
    assert.equal(firstSpoken(consoleLanguages, []), 'en');
  });
});
