/**
 * The top folders of src/ depend one way too (docs/architecture.md), and no two files import each
 * other, directly or round a loop: a circle makes a reader hold both ends at once, and a change at
 * one end ripples back. Browser and server code are kept apart by import-boundaries.test.ts; this
 * orders the folders within and across them (the wire protocol below the sandbox and the
 * companion, the adapters below the companion, never the reverse).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

/** Bottom (0) to top. Folders of one rank do not import each other. */
export const sourceLayers: ReadonlyArray<readonly string[]> = [
  ['contract/'],
  ['localize/', 'machine/', 'sandbox/'],
  ['client/', 'languages/', 'adapters/'],
  ['element/', 'console/', 'server/'],
  ['define.ts'],
  ['react/', 'index.ts'],
];

const topOf = (file: string) => {
  const path = relative(src, file);
  return path.includes('/') ? `${path.split('/')[0]}/` : path;
};

function rankOf(top: string): number {
  const rank = sourceLayers.findIndex((layer) => layer.includes(top));
  if (rank < 0) throw new Error(`src/${top} belongs to no layer: add it to sourceLayers (test/architecture/source-layers.test.ts) and docs/architecture.md`);
  return rank;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [],
  );
}

const staticImport = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/g;
const dynamicImport = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/**
 * Every relative import of each file, resolved to the file it names (type-only imports too). With
 * `lazy: false`, a dynamic `import()` is left out: it loads a file by name at run time (the
 * element's language files, `localize/load-language-file.ts`), a plug-in seam rather than a
 * dependency of the importer's code; circles are looked for with them.
 */
export function importsOf(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8'), lazy = true): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = read(file).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const specifiers = [...text.matchAll(staticImport), ...(lazy ? text.matchAll(dynamicImport) : [])].map((match) => match[1]!);
    const targets = specifiers.map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    graph.set(file, targets.filter((target) => target.startsWith(`${src}/`)));
  }
  return graph;
}

export function layerViolations(graph: Map<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = topOf(file);
    for (const target of targets) {
      const to = topOf(target);
      if (to !== from && rankOf(to) >= rankOf(from)) violations.push(`${relative(root, file)} -> ${relative(root, target)} (src/${from} may not import src/${to})`);
    }
  }
  return violations;
}

/** Each loop of files that import each other (Tarjan's strongly connected components), as paths. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) === order.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(root, member));
      } while (member !== file);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

describe('source layers', () => {
  const files = sourceFiles(src);
  const graph = importsOf(files);

  it('places every top folder of src/ in a layer', () => {
    for (const file of graph.keys()) rankOf(topOf(file));
  });

  it('has every import between top folders point down: the sandbox never reaches the companion, the adapters never reach the server', () => {
    assert.deepEqual(layerViolations(importsOf(files, undefined, false)), []);
  });

  it('has no import circle between files', () => {
    assert.deepEqual(importCircles(graph), []);
  });

  it('would catch an adapter importing the server, and two files importing each other', () => {
    const adapter = join(src, 'adapters/node-http.ts');
    const one = join(src, 'server/commands/serve.ts');
    const two = join(src, 'server/commands/serve-sandbox.ts');
    const planted = new Map([
      [adapter, "import { maxNotificationBytes } from '../server/notifications/receive-notification.js';"],
      [one, "import { startSandboxCompanion } from './serve-sandbox.js';"],
      [two, "import { startStandaloneCompanion } from './serve.js';"],
    ]);
    const plantedGraph = importsOf([...planted.keys()], (file) => planted.get(file)!);
    assert.match(layerViolations(plantedGraph).join('\n'), /src\/adapters\/ may not import src\/server\//);
    assert.deepEqual(importCircles(plantedGraph), [['src/server/commands/serve-sandbox.ts', 'src/server/commands/serve.ts']]);
  });
});
