/**
 * Issue 5, "Script tag": what `npm run build:browser` ships. Versioned names, an SRI manifest that
 * matches the bytes, and no secret and no server code in what a payer downloads.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readSriManifest, sriOf } from '../../scripts/sri-manifest.js';
import { unreleasedVersion, type BrowserBuild } from '../../scripts/build-browser.js';
import { scriptTagBudgetBytes } from '../../bench/ship-size.js';
import { builtOnce, readBuilt, removeBuild } from './built.js';
import { languagesInFiles } from '../../src/contract/languages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  version: string;
  unpkg?: string;
  jsdelivr?: string;
};

// Shapes of the service's secrets (payment-service.md: API keys `sk_live_`/`sk_test_`, webhook
// signing secrets `whsec_`). The prefix alone is enough to fail: browser code has no reason to name them.
const secretShapes = [/sk_(live|test)_/, /whsec_/];

// Module ids that must never be bundled for the browser.
const serverOnlyModules = [
  { what: 'a Node built-in', test: (id: string) => id.startsWith('node:') || id.includes('__vite-browser-external') },
  { what: 'the companion server (src/server)', test: (id: string) => id.startsWith(join(root, 'src', 'server') + sep) },
  { what: 'the sandbox (src/sandbox)', test: (id: string) => id.startsWith(join(root, 'src', 'sandbox') + sep) },
  { what: 'hono', test: (id: string) => id.includes(`${sep}node_modules${sep}hono${sep}`) || id.includes(`${sep}@hono${sep}`) },
  // zod/mini would be acceptable in the browser (TOOLCHAIN.md); classic zod is 24 KB and server-side here.
  { what: 'classic zod', test: (id: string) => /node_modules[\\/]zod[\\/].*classic/.test(id) },
];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

/**
 * Long string literals written only in server or sandbox code (error messages, headers, routes):
 * if one shows up in the bundle, server code got in by some path the module list does not show.
 */
async function serverOnlyMarkers(): Promise<string[]> {
  const literal = /'([^'\\\n]{24,})'|"([^"\\\n]{24,})"/g;
  const collect = async (dirs: string[]) => {
    const found = new Set<string>();
    for (const dir of dirs) {
      for (const file of await sourceFiles(join(root, dir))) {
        for (const match of (await readFile(file, 'utf8')).matchAll(literal)) found.add(match[1] ?? match[2]!);
      }
    }
    return found;
  };
  const server = await collect(['src/server', 'src/sandbox']);
  const shared = await collect(['src/contract', 'src/client', 'src/element', 'src/machine', 'src/localize']);
  return [...server].filter((s) => !shared.has(s) && !s.includes('${'));
}

describe('script-tag build (dist/browser)', () => {
  let build: BrowserBuild;
  before(async () => {
    build = await builtOnce();
  });
  after(removeBuild);

  /** The package's version, or `<version>-unreleased` for changes made since it was released (build-browser.ts). */
  const named = () => (build.files[0]!.file.includes(unreleasedVersion(pkg.version)) ? unreleasedVersion(pkg.version) : pkg.version);

  it('names the files after the package version (or <version>-unreleased after it): an IIFE .js and an ES module .mjs', () => {
    assert.deepEqual(
      build.files.map((f) => [f.format, f.file]),
      [
        ['iife', `momo-checkout-${named()}.js`],
        ['es', `momo-checkout-${named()}.mjs`],
      ],
    );
  });

  it('points package.json unpkg and jsdelivr at the IIFE of this version', () => {
    const expected = `dist/browser/momo-checkout-${pkg.version}.js`;
    assert.equal(pkg.unpkg, expected, 'bump unpkg with the version');
    assert.equal(pkg.jsdelivr, expected, 'bump jsdelivr with the version');
  });

  it('writes manifest.json whose sha384 integrity and sizes match the bytes of each file', async () => {
    const manifest = await readSriManifest(build.outDir);
    assert.equal(manifest.version, pkg.version);
    assert.equal(manifest.files.length, 2);
    for (const entry of manifest.files) {
      const bytes = await readFile(join(build.outDir, entry.file));
      assert.match(entry.integrity, /^sha384-[A-Za-z0-9+/]{64}$/);
      assert.equal(entry.integrity, sriOf(bytes), `${entry.file}: integrity does not match the file`);
      assert.equal(entry.bytes, bytes.length);
      assert.ok(entry.gzipBytes > 0 && entry.gzipBytes < entry.bytes);
    }
  });

  it('is minified and self-contained: the IIFE has no import/export, the ES file no bare import', async () => {
    const iife = await readBuilt(build, 'iife');
    const es = await readBuilt(build, 'es');
    assert.match(iife.text, /^var MomoCheckout=/, 'the IIFE defines the global MomoCheckout');
    assert.doesNotMatch(iife.text, /\bimport\s*[\s{*"'(]|^export\b/m);
    assert.doesNotMatch(es.text, /\bimport\s*[{*"']|\bfrom\s*["'][^./]/, 'the ES file must not import packages');
    assert.match(es.text, /export\s*\{/);
    for (const { file, text } of [iife, es]) {
      // Template literals (CSS, HTML) keep their newlines; statements starting a line mean no minifier ran.
      assert.doesNotMatch(text, /\n\s*(const|let|function|class|export) [\w{]/, `${file} is not minified`);
      assert.doesNotMatch(text, /process\.env/, `${file} still reads process.env: NODE_ENV is not replaced`);
    }
  });

  it('builds one file per language beside it, each with its own integrity in the manifest, and keeps them out of the script-tag file', async () => {
    const manifest = await readSriManifest(build.outDir);
    assert.deepEqual(manifest.languages.map((f) => [f.language, f.file]), languagesInFiles.map((code) => [code, `momo-checkout-${named()}.${code}.js`]));
    const iife = await readBuilt(build, 'iife');
    for (const entry of manifest.languages) {
      const bytes = await readFile(join(build.outDir, entry.file));
      assert.equal(entry.integrity, sriOf(bytes), `${entry.file}: integrity does not match the file`);
      assert.ok(entry.gzipBytes < 4 * 1024, `${entry.file} is ${entry.gzipBytes} B gzip: a table, not the element`);
      assert.doesNotMatch(bytes.toString('utf8'), /customElements|LitElement/, `${entry.file} carries code beyond its table`);
    }
    // What a French, Portuguese, Swahili or Arabic payer reads is in their file only.
    for (const text of ['Payer par mobile money', 'Pagar com dinheiro móvel', 'Lipa kwa pesa ya simu', 'الدفع عبر محفظة الهاتف المحمول']) {
      assert.ok(!iife.text.includes(text), `the script-tag file carries "${text}"`);
    }
  });

  it('keeps the script-tag file within its budget (25 KB gzip: what a 3G payer downloads before typing)', () => {
    const iife = build.files.find((f) => f.format === 'iife')!;
    assert.ok(
      iife.gzipBytes <= scriptTagBudgetBytes,
      `${iife.file} is ${(iife.gzipBytes / 1024).toFixed(2)} KB gzip, over ${scriptTagBudgetBytes / 1024} KB: npx tsx bench/ship-parts.ts says what each part costs`,
    );
  });

  it('contains no sk_/whsec_ shaped secret', async () => {
    for (const format of ['iife', 'es'] as const) {
      const { file, text } = await readBuilt(build, format);
      for (const shape of secretShapes) assert.doesNotMatch(text, shape, `${file} contains a ${shape} shaped string`);
    }
  });

  it('bundles no server-only module (node:, hono, classic zod, src/server, src/sandbox)', () => {
    assert.ok(build.moduleIds.some((id) => id.endsWith(join('src', 'define.ts'))), 'the module list is empty: the scan would see nothing');
    for (const { what, test } of serverOnlyModules) {
      const found = build.moduleIds.filter(test).map((id) => relative(root, id));
      assert.deepEqual(found, [], `the browser bundle pulls in ${what}`);
    }
  });

  it('contains none of the strings written only in server or sandbox code', async () => {
    const markers = await serverOnlyMarkers();
    assert.ok(markers.length > 20, `too few server markers (${markers.length}) for the scan to mean anything`);
    for (const format of ['iife', 'es'] as const) {
      const { file, text } = await readBuilt(build, format);
      const leaked = markers.filter((marker) => text.includes(marker));
      assert.deepEqual(leaked, [], `${file} contains server-only strings`);
    }
  });
});
