/**
 * Issue 13 §4: the documents' server examples work as written. Each is cut out of its Markdown file
 * (the fenced block with its marker line), its `momo-checkout/...` imports pointed at this
 * repository's sources, type-checked, then run against the sandbox as a merchant would run it:
 *
 * - README's quick start, against `npx momo-checkout sandbox`'s twin on its own port, with
 *   `MOMO_ALLOW_INSECURE_LOCAL_URLS=1`: a push payment goes all the way to the notification;
 * - docs/sandbox.md's mounted sandbox: logos and the wallet's approval page on the shop's origin.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = join(root, 'test-output', 'doc-examples');

/** The fenced code block of `file` whose first line is `marker`, imports pointed at src/. */
function example(file: string, marker: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.startsWith(marker));
  assert.ok(block, `${file} has a ts block starting with "${marker}"`);
  return block.replace(/'momo-checkout\/(server|sandbox)'/g, (_all, entry: string) => `'../../src/${entry}/index.js'`);
}

const examples = {
  quickStart: example('README.md', '// momo-checkout: server quick start'),
  mounted: example('docs/sandbox.md', '// momo-checkout: sandbox mounted on the shop'),
};

let sandbox: RunningSandbox;
const running: ChildProcess[] = [];
before(async () => {
  mkdirSync(outDir, { recursive: true });
  for (const [name, code] of Object.entries(examples)) writeFileSync(join(outDir, `${name}.ts`), code);
  sandbox = await startSandbox({ port: 0, pushDelayMs: 50, log: () => {} });
});
after(async () => {
  for (const child of running) child.kill('SIGTERM');
  await sandbox?.close();
  rmSync(outDir, { recursive: true, force: true });
});


/** Starts an example as `npx tsx server.ts` would, and resolves once it says it listens. */
function startExample(name: keyof typeof examples, env: Record<string, string>): Promise<{ output: () => string }> {
  // Each run keeps its state in a fresh folder: the default file store would otherwise find the
  // previous run's order-42 already paid.
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-example-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(outDir, `${name}.ts`)], { cwd: root, env: { PATH: process.env.PATH ?? '', MOMO_DATA_DIR: dataDir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (/shop on http/.test(output)) resolve({ output: () => output });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
  });
}

async function checkoutToken(shop: string): Promise<string> {
  const page = await fetch(`${shop}/checkout`);
  assert.equal(page.status, 200);
  const token = /token="([^"]+)"/.exec(await page.text())?.[1];
  assert.ok(token, 'the order page carries a token');
  return token;
}

async function call(shop: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${shop}/momo${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, origin: shop, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the documents’ server examples', () => {
  it('type-check as written', async () => {
    writeFileSync(
      join(outDir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, types: ['node'] }, include: ['*.ts'] }),
    );
    const checked = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(outDir, 'tsconfig.json')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
    assert.equal(checked.code, 0, checked.output);
  });

  it("README's quick start, against the sandbox on its own port with MOMO_ALLOW_INSECURE_LOCAL_URLS=1, is paid and fulfilled", async () => {
    const port = await freePort();
    const shop = `http://127.0.0.1:${port}`;
    const started = await startExample('quickStart', {
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      MOMO_PUBLIC_URL: `${shop}/momo`,
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
      PORT: String(port),
    });
    const token = await checkoutToken(shop);
    const pay = await call(shop, '/checkout/pay', token, { phoneNumber: '+2290196000001', useWallet: false });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    await until('the payment to complete', async () => {
      const { body } = await call(shop, '/checkout/status', token);
      return body.payment?.state === 'completed' ? body : undefined;
    });
    await until('fulfil() to run', async () => (/order order-42 is paid/.test(started.output()) ? true : undefined));
    assert.doesNotMatch(started.output(), /"level":"error"/, 'no setup error was logged');
  });

  it('docs/sandbox.md: mounted on the shop, logos and the approval page are on the shop’s origin', async () => {
    const port = await freePort();
    const shop = `http://127.0.0.1:${port}`;
    await startExample('mounted', {
      MOMO_SANDBOX: 'mounted',
      MOMO_BASE_URL: shop,
      MOMO_API_KEY: 'sk_test_dev',
      MOMO_WEBHOOK_SECRETS: 'whsec_dev',
      MOMO_PUBLIC_URL: `${shop}/momo`,
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
      PORT: String(port),
    });
    const token = await checkoutToken(shop);
    const lookup = await call(shop, '/checkout/lookup', token, { phoneNumber: '+2290196000001' });
    assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
    assert.ok(lookup.body.operator.logoUrl.startsWith(`${shop}/logos/`), lookup.body.operator.logoUrl);
    const pay = await call(shop, '/checkout/pay', token, { phoneNumber: '+2290196000001', useWallet: true });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    const ready = await until('the approval page', async () => {
      const { body } = await call(shop, '/checkout/status', token);
      return body.payment?.state === 'redirect-ready' ? body.payment : undefined;
    });
    assert.ok(ready.authorizationUrl.startsWith(`${shop}/authorize/`), ready.authorizationUrl);
  });
});
