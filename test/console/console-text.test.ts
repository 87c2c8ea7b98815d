/**
 * The console's browser code (src/console/) that runs without a page: how it writes store text,
 * times and hours, and its word tables. A French operator must never meet an English line or an
 * empty one, and text from the store must not be able to turn what follows it around.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hourText, plainText, timeText } from '../../src/console/format.js';
import { consoleEn } from '../../src/console/console-text-en.js';
import { consoleFr } from '../../src/console/console-text-fr.js';

describe('plainText', () => {
  it('shows bidirectional controls as their code points instead of obeying them', () => {
    assert.equal(plainText('order-\u202Ecba'), 'order-[U+202E]cba');
    assert.equal(plainText('\u2066a\u2069\u200F\u061C'), '[U+2066]a[U+2069][U+200F][U+061C]');
  });

  it('leaves every other text as it is, right-to-left letters included', () => {
    for (const text of ['order-42', 'طلب-٤٢', 'Commande n° 42 — réglée', '']) assert.equal(plainText(text), text);
  });
});

describe('times and hours', () => {
  const at = '2026-03-04T05:06:07.000Z';
  it('are written in the language asked for', () => {
    assert.notEqual(timeText(at, 'en'), timeText(at, 'fr'));
    assert.match(timeText(at, 'fr'), /04\/03\/2026/);
    assert.match(hourText(at, 'fr'), /^\d{2}:\d{2}$/);
  });
});

/** Every leaf of a word table with its path: strings as they are, functions called with sample values. */
function leaves(table: unknown, path = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (typeof table === 'function') {
    const samples = Array.from({ length: table.length }, (_, index) => (index % 2 === 0 ? 2 : 'x'));
    found.set(path, (table as (...args: unknown[]) => unknown)(...samples));
  } else if (table && typeof table === 'object') {
    for (const [key, value] of Object.entries(table)) for (const [leaf, text] of leaves(value, path ? `${path}.${key}` : key)) found.set(leaf, text);
  } else found.set(path, table);
  return found;
}

describe('the word tables', () => {
  const en = leaves(consoleEn);
  const fr = leaves(consoleFr);

  it('French has every line English has, and no other', () => {
    assert.deepEqual([...fr.keys()].sort(), [...en.keys()].sort());
  });

  it('no line is empty or shows a value it was not given', () => {
    for (const [table, lines] of [['en', en], ['fr', fr]] as const) {
      for (const [path, text] of lines) {
        if (typeof text !== 'string') continue;
        assert.notEqual(text.trim(), '', `${table} ${path} is empty`);
        assert.doesNotMatch(text, /undefined|NaN|\[object/, `${table} ${path}: ${text}`);
      }
    }
  });

  it('says how long ago in the units a person uses', () => {
    assert.equal(consoleEn.list.hours(1), 'the last hour');
    assert.equal(consoleEn.list.hours(24), 'the last 24 hours');
    assert.equal(consoleEn.list.hours(168), 'the last 7 days');
  });
});
