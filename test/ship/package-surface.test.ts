/**
 * Issue 13 §7-§8: what a merchant's project sees of the published package. The declarations are
 * emitted as `npm run build` emits them and type-checked from a plain node:http + Hono project that
 * has neither `express` nor `@types/express`, with `skipLibCheck` off; the files a merchant needs
 * are reachable through `exports`; React-only packages are optional.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');

let work: string;
let pkg: string;
let app: string;

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(suffix)).map((file) => join(dir, file));
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'momo-surface-'));
  app = join(work, 'shop');
  // Inside the shop's node_modules, as npm installs it: its own imports resolve from there.
  pkg = join(app, 'node_modules', 'momo-checkout');
  // The declarations exactly as the build makes them (tsconfig.build.json), without the JS.
  const emitted = await run(tsc, ['-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--outDir', join(pkg, 'dist')], root);
  assert.equal(emitted.code, 0, emitted.output);
  await cp(join(root, 'package.json'), join(pkg, 'package.json'));
  await mkdir(join(pkg, 'dist', 'browser'), { recursive: true });
  await writeFile(join(pkg, 'dist', 'browser', 'manifest.json'), '{}');

  // A shop's node_modules: everything installed here but express and its types (a node:http or Hono shop).
  const modules = join(app, 'node_modules');
  await mkdir(join(modules, '@types'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === 'express' || entry === '@types' || entry === 'momo-checkout' || entry.startsWith('.')) continue;
    await symlink(join(root, 'node_modules', entry), join(modules, entry));
  }
  await symlink(join(root, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'));
  // The type packages the package depends on come with it (@types/pg: the PostgreSQL store's declarations name pg's types).
  const manifest = JSON.parse(readFileText(join(root, 'package.json'))) as { dependencies: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies).filter((dependency) => dependency.startsWith('@types/'))) {
    await symlink(join(root, 'node_modules', name), join(modules, name));
  }
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the published declarations', () => {
  it('import nothing from express', () => {
    const offenders = filesUnder(join(pkg, 'dist'), '.d.ts').filter((file) => /from ['"]express['"]|import\(['"]express['"]\)/.test(readFileText(file)));
    assert.deepEqual(offenders.map((file) => relative(pkg, file)), []);
  });

  it('come with declaration maps, so "go to definition" opens the TypeScript source', () => {
    assert.ok(existsSync(join(pkg, 'dist', 'server', 'index.d.ts.map')));
    const map = JSON.parse(readFileText(join(pkg, 'dist', 'server', 'index.d.ts.map'))) as { sources: string[] };
    assert.equal(map.sources.length, 1);
    assert.match(map.sources[0]!, /src\/server\/index\.ts$/);
  });

  it("leave the element's test hooks out", () => {
    const element = readFileText(join(pkg, 'dist', 'element', 'momo-checkout.d.ts'));
    assert.doesNotMatch(element, /\bnavigate\b/);
    assert.match(element, /\bclient\b/, 'the documented scripted-client property stays');
  });

  it('name one NetworkError per entry: the server has ServiceNetworkError, the browser entry NetworkError', () => {
    const server = readFileText(join(pkg, 'dist', 'server', 'service-client', 'errors.d.ts'));
    assert.match(server, /class ServiceNetworkError/);
    assert.doesNotMatch(server, /class NetworkError/);
  });

  it('state rules in words: no bare "§" citation of a document merchants do not have, on the public surface', () => {
    const publicFiles = [
      'server/index.d.ts', 'server/companion.d.ts', 'server/options.d.ts', 'server/payments/checkouts.d.ts',
      'server/setup/setup-checks.d.ts', 'server/setup/setup-report.d.ts', 'server/model/records.d.ts',
      'server/service-client/client.d.ts', 'server/service-client/errors.d.ts', 'contract/webhook-signature/verify.d.ts', 'contract/webhook-signature/sign.d.ts',
      'contract/webhook-signature/errors.d.ts', 'adapters/express.d.ts', 'adapters/hono.d.ts', 'adapters/node-http.d.ts', 'contract/companion.d.ts',
      'contract/money.d.ts', 'sandbox/index.d.ts', 'sandbox/types.d.ts', 'react/index.d.ts',
    ];
    const citing = publicFiles.flatMap((file) => readFileText(join(pkg, 'dist', file)).split('\n').filter((line) => line.includes('§')).map((line) => `${file}: ${line.trim()}`));
    assert.deepEqual(citing, []);
  });

  it('type-check in a node:http + Hono shop without @types/express, skipLibCheck off', async () => {
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true, skipLibCheck: false, noEmit: true }, files: ['server.ts'] }),
    );
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'shop', type: 'module', private: true }));
    await writeFile(
      join(app, 'server.ts'),
      `import { createServer } from 'node:http';
import { Hono } from 'hono';
import { CheckoutError, CompanionConfigError, companionOptionsFromEnv, createCompanion, honoRoutes, toNodeHandler, type CheckoutErrorCode } from 'momo-checkout/server';

try {
  const { port, host, ...options } = companionOptionsFromEnv(process.env);
  const momo = createCompanion(options);
  createServer(toNodeHandler(momo)).listen(port, host);
  const hono = new Hono();
  hono.route('/', honoRoutes(momo, '/momo'));
  const refusals: CheckoutErrorCode[] = ['CURRENCY_NOT_SERVED', 'AMOUNT_PRECISION', 'AMOUNT_BELOW_MINIMUM'];
  await momo.createCheckout({ orderId: 'order-42', amount: '5000', currencyCode: 'XOF' }).catch((error: unknown) => {
    if (error instanceof CheckoutError && refusals.includes(error.code)) console.log(error.message);
  });
} catch (error) {
  if (error instanceof CompanionConfigError) console.log(error.code, error.problems.map((problem) => problem.variable));
}
`,
    );
    const checked = await run(tsc, ['-p', 'tsconfig.json'], app);
    assert.equal(checked.code, 0, checked.output);
  });
});

describe('the package', () => {
  it('exports the script-tag files and their manifest under momo-checkout/browser/*', () => {
    const resolve = createRequire(join(app, 'server.js')).resolve;
    assert.equal(resolve('momo-checkout/browser/manifest.json'), join(pkg, 'dist', 'browser', 'manifest.json'));
  });

  it('makes the React-only packages optional peers, installed by React projects only', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.equal(manifest.dependencies!['@lit/react'], undefined, '@lit/react (and the @types/react it needs) is not installed for a server-only shop');
    assert.ok(manifest.peerDependencies!['@lit/react']);
    assert.deepEqual(manifest.peerDependenciesMeta!['@lit/react'], { optional: true });
    assert.deepEqual(manifest.peerDependenciesMeta!.react, { optional: true });
  });
});

function readFileText(file: string): string {
  return readFileSyncUtf8(file);
}

import { readFileSync } from 'node:fs';
function readFileSyncUtf8(file: string): string {
  return readFileSync(file, 'utf8');
}
