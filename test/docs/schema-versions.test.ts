/**
 * Issue 53, item 5: the stores' schema versions the documents state are the code's. 0.5.0's notes
 * each named the step their own change added ("migrates its PostgreSQL schema to version 4", "the
 * file store's schema goes to version 3"), read as end points by a merchant whose 0.5.0 went to 6
 * and 4, and docs/durability.md said the upgrade took the file to schema 3.
 *
 * The versions are read from the code, never written here: the previous release's from its own
 * modules (releases/companions/, test/support/previous-release.ts), the next one's from src/. Each
 * text is checked against the release it speaks of:
 * - CHANGELOG.md's section of the previous release, against that release's code;
 * - the pending changesets (the next release's notes) and the docs, against src/;
 * - the sentences that name a release's whole upgrade, against that release.
 *
 * In each, a version named for a store (`migration N`, `migrations N to M`, `PostgreSQL schema
 * version N` for PostgreSQL; `schema N`, `schema step N` for the file store) is one the release has,
 * and a sentence saying where a store goes ("to version N", "to schema N") names its last one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { currentSchemaVersion, migrations } from '../../src/server/stores/postgres/postgres-schema.js';
import { SCHEMA_VERSION } from '../../src/server/stores/sqlite/sqlite-schema.js';
import { unpackPreviousRelease, type PreviousRelease } from '../support/previous-release.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The last schema version of each store in one release. */
interface Versions {
  release: string;
  postgres: number;
  file: number;
}

const current: Versions = { release: 'the next release (src/)', postgres: currentSchemaVersion, file: SCHEMA_VERSION };

/** A text's lines joined, so a sentence broken across lines reads as one. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/** Which store the words just before `at` speak of: the last one named wins. */
function storeBefore(text: string, at: number): 'postgres' | 'file' | undefined {
  const before = text.slice(Math.max(0, at - 100), at);
  const postgres = before.lastIndexOf('PostgreSQL');
  const file = before.lastIndexOf('file');
  if (postgres < 0 && file < 0) return undefined;
  return postgres > file ? 'postgres' : 'file';
}

/** What in `text` names a schema version `versions`' release does not have, or not its last as its end. */
function wrongVersions(name: string, text: string, versions: Versions): string[] {
  const words = flat(text);
  const wrong: string[] = [];
  const check = (store: 'postgres' | 'file', match: RegExpMatchArray, numbers: number[]) => {
    for (const number of numbers) {
      if (number > versions[store]) wrong.push(`${name}: "${match[0]}" names ${store} schema ${number}; ${versions.release} goes to ${versions[store]}`);
    }
  };
  for (const match of words.matchAll(/\bmigrations? (\d+)(?: to (\d+))?/g)) check('postgres', match, [match[1], match[2]].filter(Boolean).map(Number));
  for (const match of words.matchAll(/\bPostgreSQL(?:'s)? (?:schema )?(?:to )?version (\d+)/g)) check('postgres', match, [Number(match[1])]);
  for (const match of words.matchAll(/\bschema (?:step )?(\d+)(?: to (\d+))?/g)) check('file', match, [match[1], match[2]].filter(Boolean).map(Number));
  // Where a store goes: its last version, never a step on the way.
  for (const match of words.matchAll(/\bto (?:schema|version) (\d+)/g)) {
    const store = storeBefore(words, match.index!);
    assert.ok(store, `${name}: "${words.slice(Math.max(0, match.index! - 60), match.index! + 20)}" says which store`);
    if (Number(match[1]) !== versions[store]) wrong.push(`${name}: "${words.slice(Math.max(0, match.index! - 60), match.index! + match[0].length)}": ${versions.release}'s ${store} store goes to ${versions[store]}`);
  }
  return wrong;
}

/** CHANGELOG.md's section of `version`, up to the next release's heading. */
function changelogSection(version: string): string {
  const text = read('CHANGELOG.md');
  const start = text.indexOf(`\n## ${version}\n`);
  assert.ok(start >= 0, `CHANGELOG.md has a section "## ${version}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The first number `pattern` finds in `text`, which must state it. */
function stated(name: string, text: string, pattern: RegExp): number {
  const match = pattern.exec(flat(text));
  assert.ok(match, `${name} states ${pattern}`);
  return Number(match[1]);
}

describe('schema versions in the documents are the code’s', () => {
  let previous: PreviousRelease;
  let released: Versions;

  before(async () => {
    previous = unpackPreviousRelease();
    const postgres = await previous.load<{ currentSchemaVersion: number }>('server/stores/postgres/postgres-schema.js');
    const file = await previous.load<{ SCHEMA_VERSION: number }>('server/stores/sqlite/sqlite-schema.js');
    released = { release: previous.version, postgres: postgres.currentSchemaVersion, file: file.SCHEMA_VERSION };
  });
  after(() => previous?.remove());

  it("the previous release's CHANGELOG section: its upgrade's end points, and no version it does not have", () => {
    const section = changelogSection(released.release);
    const name = `CHANGELOG.md ${released.release}`;
    assert.equal(stated(name, section, /moves the file store from schema 1 to (\d+)/), released.file);
    assert.equal(stated(name, section, /runs PostgreSQL's migrations 2 to (\d+)/), released.postgres);
    assert.equal(stated(name, section, /doctor` then says version (\d+)/), released.postgres);
    assert.deepEqual(wrongVersions(name, section, released), []);
  });

  it('the pending changesets (the next release), against src/', () => {
    const dir = join(root, '.changeset');
    const wrong = readdirSync(dir)
      .filter((file) => file.endsWith('.md') && file !== 'README.md')
      .flatMap((file) => wrongVersions(`.changeset/${file}`, readFileSync(join(dir, file), 'utf8'), current));
    assert.deepEqual(wrong, []);
    // schema_version holds the oldest version a process must know: the newest contract's readersFrom.
    const readersFrom = Math.max(...migrations.map((migration) => migration.readersFrom ?? 0));
    const rolling = read('.changeset/postgres-rolling-upgrade.md');
    assert.equal(stated('.changeset/postgres-rolling-upgrade.md', rolling, /`schema_version` now holds[^.]*?\((\d+) after this upgrade\)/), readersFrom);
  });

  it('the docs and the README, against src/; the upgrade they describe, against its release', () => {
    const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
    assert.deepEqual(documents.flatMap((file) => wrongVersions(file, read(file), current)), []);
    const durability = read('docs/durability.md');
    const upgrade = /Upgrading from 0\.4\.0 to (\d+\.\d+\.\d+) needs nothing: the file store moves its file from schema 1 to (\d+) when it opens it and PostgreSQL runs migrations 2 to (\d+) at start/.exec(flat(durability));
    assert.ok(upgrade, 'docs/durability.md says what the upgrade from 0.4.0 does to each store');
    assert.deepEqual(upgrade.slice(1).map((value, index) => (index === 0 ? value : Number(value))), [released.release, released.file, released.postgres]);
  });
});
