/**
 * The server's parts depend one way (docs/architecture.md): each part may import the parts below
 * it, never one beside it or above it. A store that imported a route, or a route that imported the
 * composition root, would fail here. Every relative import under src/server is read, type-only
 * imports included: a type pulled from above ties the parts as surely as a value.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const server = join(root, 'src/server');

/** Bottom (0) to top. Parts of one rank do not import each other, but for the foundation's. */
export const serverLayers: ReadonlyArray<readonly string[]> = [
  ['log.ts', 'config-error.ts', 'background-work.ts', 'tokens.ts', 'model/', 'service-client/'],
  ['stores/'],
  ['payments/', 'setup/'],
  ['refunds/', 'links/'],
  ['notifications/', 'deliveries/'],
  ['http-answers/'],
  ['page-routes/', 'server-api/', 'console/'],
  ['metrics/'],
  ['companion.ts', 'companion-storage.ts', 'companion-actions.ts', 'payer-routes.ts', 'operator-routes.ts', 'options.ts', 'options-from-env.ts', 'options-schema.ts', 'public-address.ts', 'maintenance.ts'],
  ['commands/'],
  ['cli.ts', 'index.ts'],
];
/** Ranks whose parts may import each other: the foundation's small modules, and the composition root's. */
const openRanks = new Set([0, serverLayers.findIndex((layer) => layer.includes('companion.ts'))]);

/** The part a file under src/server belongs to: its first folder, or the file itself at the top. */
function partOf(file: string): string {
  const path = relative(server, file);
  return path.includes('/') ? `${path.split('/')[0]}/` : path;
}

function rankOf(part: string): number {
  const rank = serverLayers.findIndex((layer) => layer.includes(part));
  if (rank < 0) throw new Error(`src/server/${part} belongs to no layer: add it to serverLayers (test/architecture/server-layers.test.ts) and docs/architecture.md`);
  return rank;
}

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? serverFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const importPattern = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Every import that points down the wrong way, as `from -> to` lines. */
export function layerViolations(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = partOf(file);
    const text = read(file).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of text.matchAll(importPattern)) {
      const target = resolve(dirname(file), match[1] ?? match[2]!);
      if (!target.startsWith(`${server}/`)) continue;
      const to = partOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      const [fromRank, toRank] = [rankOf(from), rankOf(to)];
      const allowed = toRank < fromRank || (toRank === fromRank && openRanks.has(fromRank));
      if (!allowed) violations.push(`${relative(root, file)} -> ${relative(root, target)} (${from} may not import ${to})`);
    }
  }
  return violations;
}

/**
 * The lines of files below http-answers/ that pair a code with an HTTP status (`NOT_FOUND: 404,`):
 * the business parts throw domain errors, and each surface's table says their statuses
 * (page-routes/refusal-answer.ts, server-api/server-api-error.ts, console/console-refusal.ts,
 * http-answers/). A status table beside the codes would be a second place for the same rule.
 */
export function statusTablesBelowAnswers(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  const answersRank = rankOf('http-answers/');
  return files
    .filter((file) => rankOf(partOf(file)) < answersRank)
    .flatMap((file) => [...read(file).matchAll(/^\s*['"]?[A-Z][A-Z_]+['"]?\s*:\s*[1-5]\d\d\s*,/gm)].map((match) => `${relative(root, file)}: ${match[0].trim()}`));
}

describe('server layers', () => {
  const files = serverFiles(server);

  it('places every part of src/server in a layer', () => {
    for (const file of files) rankOf(partOf(file));
  });

  it('has every import point down: stores never reach routes, routes never reach the composition root', () => {
    assert.deepEqual(layerViolations(files), []);
  });

  it('would catch a store importing a route, and a route importing the composition root', () => {
    const store = join(server, 'stores/memory/memory-store.ts');
    const route = join(server, 'page-routes/page-routes.ts');
    const planted = new Map([
      [store, "import { createApp } from '../../page-routes/page-routes.js';"],
      [route, "import { createCompanion } from '../companion.js';"],
    ]);
    const found = layerViolations([store, route], (file) => planted.get(file)!);
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(found[0]!, /stores\/ may not import page-routes\//);
    assert.match(found[1]!, /page-routes\/ may not import companion\.ts/);
  });

  it('keeps HTTP statuses out of the business parts: each surface has its one table of them', () => {
    assert.deepEqual(statusTablesBelowAnswers(files), []);
    const planted = statusTablesBelowAnswers([join(server, 'refunds/refund-refusal.ts')], () => 'const statusOf = {\n  NOT_REFUNDABLE: 409,\n};');
    assert.deepEqual(planted, ['src/server/refunds/refund-refusal.ts: NOT_REFUNDABLE: 409,']);
  });

  it('keeps each folder small enough to hold in the head (16 source files at most directly in it)', () => {
    const crowded: string[] = [];
    const count = (dir: string) => {
      const entries = readdirSync(dir, { withFileTypes: true });
      const sources = entries.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name)).length;
      if (sources > 16) crowded.push(`${relative(root, dir)}: ${sources}`);
      for (const entry of entries) if (entry.isDirectory()) count(join(dir, entry.name));
    };
    count(join(root, 'src'));
    assert.deepEqual(crowded, []);
  });
});
