import { expect } from '@open-wc/testing';
import { languagesInFiles } from '../../src/contract/languages.js';
import { ar } from '../../src/localize/ar.js';
import { fr } from '../../src/localize/fr.js';
import { addedLanguage } from '../../src/localize/added-languages.js';
import { languageFor, missingLanguageFile, stringsFor, tables } from '../../src/localize/index.js';
import { pt } from '../../src/localize/pt.js';
import { sw } from '../../src/localize/sw.js';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner !== null ? keys(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function valueAt(table: object, key: string): unknown {
  return key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], table);
}

const translations = { fr, pt, sw, ar };

describe('translation tables', () => {
  it('checks every language of the one list (contract/languages.ts): a new one adds its table here', () => {
    expect(Object.keys(translations).sort()).to.deep.equal([...languagesInFiles].sort());
  });

  for (const [code, table] of Object.entries(translations)) {
    it(`${code} has exactly the keys of English, none empty`, () => {
      expect(keys(table).sort()).to.deep.equal(keys(tables.en).sort());
      for (const key of keys(table)) {
        const value = valueAt(table, key);
        const textValue = typeof value === 'function' ? (value as (...a: string[]) => string)('X', 'Y') : value;
        expect(textValue, key).to.be.a('string').and.not.equal('');
      }
    });

    it(`${code} is a translation: at most a few texts equal English (names, codes)`, () => {
      const same = keys(table).filter((key) => {
        const value = valueAt(table, key);
        const english = valueAt(tables.en, key);
        const read = (v: unknown) => (typeof v === 'function' ? (v as (...a: string[]) => string)('X', 'Y') : v);
        return key !== 'dir' && read(value) === read(english);
      });
      expect(same, `${code} texts left in English`).to.have.length.below(2);
    });
  }

  it('only Arabic reads right to left', () => {
    expect([tables.en.dir, fr.dir, pt.dir, sw.dir, ar.dir]).to.deep.equal(['ltr', 'ltr', 'ltr', 'ltr', 'rtl']);
  });

  it('picks the table by primary language and falls back to English', async () => {
    await import('../../src/languages/fr.js');
    expect(languageFor('fr-CI')).to.equal('fr');
    expect(languageFor('FR')).to.equal('fr');
    expect(languageFor('xx-KE')).to.equal('en');
    expect(languageFor(undefined)).to.equal('en');
    expect(stringsFor('fr').payWith('Moov')).to.equal('Payer avec Moov');
  });

  it('shows Swahili only once its file has run, and names the missing file until then', async () => {
    // This test file never imported src/languages/sw.ts; other files in the run may have.
    if (!addedLanguage('sw')) {
      expect(languageFor('sw-KE')).to.equal('en');
      expect(missingLanguageFile('sw-KE')).to.equal('sw');
    }
    await import('../../src/languages/sw.js');
    expect(languageFor('sw-KE')).to.equal('sw');
    expect(missingLanguageFile('sw-KE')).to.equal(null);
    expect(stringsFor('sw-TZ').payWith('M-Pesa')).to.equal('Lipa kwa M-Pesa');
    expect(missingLanguageFile('en')).to.equal(null);
  });
});
