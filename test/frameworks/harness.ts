/**
 * The framework examples (examples/*) run as a merchant's app runs: copied out of the work tree,
 * installed from the npm registry with the packed packages in place of the published ones, built
 * with the framework's own tools, served, and paid in Chromium against a real sandbox.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { createCompanion, createLogger, createMemoryStore, toNodeHandler } from '../../src/server/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { packElement, run } from '../support/packed.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const approve = '+2290196000001';

/**
 * Copies examples/<name> (without what an earlier run left) into `dir` and installs it, the
 * example's dependency on each published package replaced by its tarball.
 */
export async function installExample(name: string, dir: string, tarballs: Record<string, string>): Promise<string> {
  const app = join(dir, name);
  cpSync(join(root, 'examples', name), app, { recursive: true, filter: (source) => !/[/\\](node_modules|dist|\.next|\.svelte-kit)$/.test(source) });
  const manifestPath = join(app, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies: Record<string, string> };
  for (const [pkg, tarball] of Object.entries(tarballs)) {
    assert.ok(manifest.dependencies[pkg], `examples/${name} depends on ${pkg}`);
    manifest.dependencies[pkg] = `file:${tarball}`;
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  // --include=dev: vite's build, run in this process to pack the element, set NODE_ENV=production.
  await run('npm', ['install', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'], app);
  return app;
}

/** `npm run <script>` in the app, with only the variables given (no MOMO_* from this process). */
export function npmRun(app: string, script: string, env: Record<string, string> = {}): Promise<string> {
  return run('npm', ['run', script], app, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env });
}

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export interface StaticShop {
  url: string;
  close(): Promise<void>;
}

/**
 * A single-page app's server: the built files, the companion at /momo (in-process, against a
 * sandbox) and the shop's own `POST /shop/checkout`, which creates the checkout and answers its token.
 */
export async function serveSinglePageApp(distDir: string): Promise<StaticShop> {
  const sandbox: RunningSandbox = await startSandbox({ port: 0, pushDelayMs: 300, log: () => {} });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  const url = `http://127.0.0.1:${address.port}`;
  const momo = createCompanion({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    webhookSecrets: [sandbox.webhookSecret],
    publicUrl: `${url}/momo`,
    allowedOrigins: [url],
    allowInsecureLocalUrls: true,
    store: createMemoryStore(),
    log: createLogger({ sink: () => {} }),
  });
  const companion = toNodeHandler(momo);
  let orders = 0;
  server.on('request', async (request, response) => {
    const path = new URL(request.url ?? '/', url).pathname;
    if (path.startsWith('/momo/')) return companion(request, response);
    if (path === '/shop/checkout' && request.method === 'POST') {
      const { token } = await momo.createCheckout({ orderId: `spa-${process.pid}-${++orders}`, amount: '5000', currencyCode: 'XOF' });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
      return;
    }
    const file = normalize(join(distDir, path === '/' ? 'index.html' : path));
    const body = file.startsWith(distDir) ? await readFile(file).catch(() => null) : null;
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await momo.close();
      await sandbox.close();
    },
  };
}

/**
 * The payer on the shop's page in Chromium: a push number, "Pay", then the app's own text
 * (`thanks`) that its typed `momo-succeeded` handler shows (or navigates to, which may come before
 * the element's "Payment received" can be seen). No page error on the way.
 */
export async function payInChromium(pageUrl: string, thanks: RegExp): Promise<void> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // Failed responses by address (the console's "Failed to load resource" does not say which);
    // the examples have no icon, and the browser asks for one anyway.
    page.on('console', (message) => void (message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text())));
    page.on('response', (answer) => void (answer.status() >= 400 && !answer.url().endsWith('/favicon.ico') && problems.push(`${answer.status()} ${answer.url()}`)));
    const response = await page.goto(pageUrl);
    assert.equal(response?.status(), 200);
    const field = page.getByLabel('Mobile money number');
    await field.pressSequentially(approve);
    await field.press('Tab');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText(thanks).waitFor({ timeout: 20_000 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
}

/**
 * What a single-page example (Vite) must show: its strict type check passes, and fails on the
 * `momo-succeeded` handler's untyped event once the element's types file (`typesFile`) is gone;
 * its production build pays in Chromium.
 */
export async function provesSinglePageApp(name: string, typesFile: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `momo-${name}-`));
  let shop: StaticShop | undefined;
  try {
    const app = await installExample(name, dir, { '@momo-checkout/element': await packElement(dir) });
    await npmRun(app, 'typecheck');

    const types = join(app, typesFile);
    const kept = readFileSync(types, 'utf8');
    rmSync(types);
    const untyped = await npmRun(app, 'typecheck').then(() => '', (error: Error) => error.message);
    assert.match(untyped, /implicitly has an 'any' type/, `without ${typesFile} the handler's event is untyped`);
    writeFileSync(types, kept);

    await npmRun(app, 'build');
    shop = await serveSinglePageApp(join(app, 'dist'));
    await payInChromium(`${shop.url}/`, /Thank you: order spa-\S+ is paid\./);
  } finally {
    await shop?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
