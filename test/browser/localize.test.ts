import { expect } from '@open-wc/testing';
import { languageFor, stringsFor, tables } from '../../src/localize/index.js';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner !== null ? keys(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('translation tables', () => {
  it('English and French have exactly the same keys, none empty', () => {
    expect(keys(tables.fr).sort()).to.deep.equal(keys(tables.en).sort());
    for (const table of [tables.en, tables.fr]) {
      for (const key of keys(table)) {
        const value = key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], table);
        const textValue = typeof value === 'function' ? (value as (...a: string[]) => string)('X', 'Y') : value;
        expect(textValue, key).to.be.a('string').and.not.equal('');
      }
    }
  });

  it('picks the table by primary language and falls back to English', () => {
    expect(languageFor('fr-CI')).to.equal('fr');
    expect(languageFor('FR')).to.equal('fr');
    expect(languageFor('sw-KE')).to.equal('en');
    expect(languageFor(undefined)).to.equal('en');
    expect(stringsFor('fr').payWith('Moov')).to.equal('Payer avec Moov');
  });
});
