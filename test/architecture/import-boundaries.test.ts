/**
 * Browser code and server code never import each other (STYLE.md): a browser bundle must not be
 * able to pull in the API key handling, and a server must not pull in Lit. This walks the real
 * import graph from each entry point, so a new file cannot slip past a list.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { languagesInFiles } from '../../src/contract/languages.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g;

/** Every file reachable from `entry` by static and literal dynamic imports, and the bare packages it names. */
function importGraph(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(root, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier) continue;
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (existsSync(target)) queue.push(target);
      else if (existsSync(target.replace(/\.ts$/, '/index.ts'))) queue.push(target.replace(/\.ts$/, '/index.ts'));
    }
  }
  return { files: [...files].map((file) => relative(root, file)), packages: [...packages] };
}

const browserEntries = ['src/index.ts', 'src/define.ts', 'src/react/index.ts', 'src/console/define.ts', ...languagesInFiles.map((code) => `src/languages/${code}.ts`)].filter((entry) => existsSync(join(root, entry)));
const serverEntries = ['src/server/index.ts', 'src/sandbox/index.ts'].filter((entry) => existsSync(join(root, entry)));

describe('import boundaries', () => {
  it('finds the entry points it guards', () => {
    assert.ok(browserEntries.length + serverEntries.length > 0, 'no entry point found under src/');
  });

  for (const entry of browserEntries) {
    it(`${entry} reaches no server code, no Node API and no classic zod`, () => {
      const { files, packages } = importGraph(entry);
      const serverFiles = files.filter((file) => /^src\/(server|sandbox|adapters)\/|^src\/contract\/(upstream\/|phone-full)/.test(file));
      assert.deepEqual(serverFiles, [], `${entry} imports server-side files`);
      const serverPackages = packages.filter((name) => name.startsWith('node:') || name === 'zod' || name.startsWith('hono') || name.startsWith('@hono/') || name === 'libphonenumber-js' || name.endsWith('metadata.max.json'));
      assert.deepEqual(serverPackages, [], `${entry} imports server-side or oversized packages`);
    });
  }

  for (const entry of serverEntries) {
    it(`${entry} reaches no browser element code`, () => {
      const { files, packages } = importGraph(entry);
      assert.deepEqual(files.filter((file) => /^src\/(element|machine|client|localize|react|console)\//.test(file)), []);
      assert.deepEqual(packages.filter((name) => name === 'lit' || name.startsWith('lit/') || name.startsWith('@lit/')), []);
    });
  }
});
