/**
 * Issue 25, "done when": a browser-only app that installs the element gets no server code. The
 * browser package is built and packed as it is published, installed into an empty app from the
 * registry with install scripts off, and the app's node_modules is read: none of the companion's
 * packages, under 6 MB, every import of the package's files found, and the element's entries
 * resolve through `exports`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { packElement, run } from '../support/packed.js';
import { languagesInFiles } from '../../src/contract/languages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverPackages = ['better-sqlite3', 'redis', '@redis/client', 'hono', '@hono/node-server', '@hono/zod-openapi', 'zod', 'standardwebhooks', 'ipaddr.js', 'momo-checkout'];
/**
 * Lit and the element (its script-tag files, every release's kept beside them, about 0.2 MB a
 * release): 4.5 MB at 0.5.0. It was 13.9 MB while the package installed libphonenumber-js (10.4 MB),
 * which its code never loaded: the element reads numbers with its own reader and metadata.
 */
const maxBytes = 6 * 1024 * 1024;

/** Bytes of the files under `dir`, as `du --apparent-size` counts them. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/**
 * What a file imports, read by TypeScript's parser: import and export declarations, import() calls
 * and import() types; never a comment's words, nor a `declare module 'vue'` augmentation (which
 * applies only in an app that has Vue).
 */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier
      : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) ? node.argument.literal
      : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword ? node.arguments[0]
      : undefined;
    if (specifier && ts.isStringLiteral(specifier)) specifiers.push(specifier.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return specifiers;
}

describe('a browser-only install of @momo-checkout/element', () => {
  let dir: string;
  let app: string;
  let installLog: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'momo-element-install-'));
    const tarball = await packElement(dir);
    app = join(dir, 'front-end');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'front-end', private: true, type: 'module' }));
    installLog = await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', tarball], app);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('installs none of the server packages, and nothing asks for an install script', () => {
    const present = serverPackages.filter((name) => existsSync(join(app, 'node_modules', name)));
    assert.deepEqual(present, []);
    assert.doesNotMatch(installLog, /install-scripts/);
  });

  it(`weighs under ${maxBytes / 1024 / 1024} MB`, (t) => {
    const bytes = bytesUnder(join(app, 'node_modules'));
    t.diagnostic(`node_modules: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${readdirSync(join(app, 'node_modules')).length} top-level entries`);
    assert.ok(bytes < maxBytes, `node_modules is ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  });

  it('depends on lit only; React and @lit/react stay optional peers', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', 'element', 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(manifest.dependencies!), ['lit']);
    assert.deepEqual(manifest.peerDependenciesMeta, { '@lit/react': { optional: true }, react: { optional: true } });
  });

  it('imports, in its files and their types, nothing but its dependencies and optional peers', () => {
    const pkg = join(app, 'node_modules', '@momo-checkout', 'element');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const declared = new Set([...Object.keys(manifest.dependencies!), ...Object.keys(manifest.peerDependencies!)]);
    const firstUse = new Map<string, string>();
    for (const folder of ['dist', 'types']) {
      for (const entry of readdirSync(join(pkg, folder), { recursive: true, withFileTypes: true })) {
        const file = join(entry.parentPath, entry.name);
        // The script-tag files are bundles: they import nothing.
        if (!entry.isFile() || !/\.(m?js|d\.ts)$/.test(entry.name) || file.includes(`${sep}browser${sep}`)) continue;
        for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
          if (specifier.startsWith('.')) continue;
          const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
          if (!firstUse.has(name)) firstUse.set(name, relative(pkg, file));
        }
      }
    }
    assert.ok(firstUse.has('lit'), `the scan reads the imports (found ${[...firstUse.keys()].join(', ')})`);
    const undeclared = [...firstUse].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(undeclared, [], 'imported by the package but not in its dependencies: an app that installs it cannot resolve them');
  });

  it('is released with the back end: the same version', () => {
    const versionOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    assert.equal(versionOf(join(root, 'packages', 'element', 'package.json')), versionOf(join(root, 'package.json')));
  });

  it('exports the element, define, react, the languages and the script-tag files with their manifest', () => {
    const resolve = createRequire(join(app, 'index.js')).resolve;
    const pkg = join(app, 'node_modules', '@momo-checkout', 'element');
    assert.equal(resolve('@momo-checkout/element'), join(pkg, 'dist', 'index.js'));
    assert.equal(resolve('@momo-checkout/element/define'), join(pkg, 'dist', 'define.js'));
    assert.equal(resolve('@momo-checkout/element/react'), join(pkg, 'dist', 'react', 'index.js'));
    const manifest = JSON.parse(readFileSync(resolve('@momo-checkout/element/browser/manifest.json'), 'utf8')) as {
      files: Array<{ file: string }>;
      languages: Array<{ file: string; language: string }>;
    };
    for (const { file } of [...manifest.files, ...manifest.languages]) assert.ok(existsSync(resolve(`@momo-checkout/element/browser/${file}`)), file);
    // Issue 23: each language an app imports beside the element, and its file for a script tag.
    for (const code of languagesInFiles) {
      assert.equal(resolve(`@momo-checkout/element/languages/${code}`), join(pkg, 'dist', 'languages', `${code}.js`));
      assert.ok(manifest.languages.some((entry) => entry.language === code), `the manifest lists the ${code} file`);
    }
  });

  it("marks the React wrapper 'use client' (a Next.js Server Component may render it)", () => {
    const wrapper = readFileSync(join(app, 'node_modules', '@momo-checkout', 'element', 'dist', 'react', 'index.js'), 'utf8');
    assert.match(wrapper, /^'use client';/);
  });
});
