/**
 * Issue 53, item 1: the README's quick start installs and starts on a fresh machine. The packages
 * are not on the npm registry yet, so the README installs the tarballs `npm pack` makes in a clone
 * of this repository. Here the tarball is built as `npm pack` builds it (test/support/packed.ts:
 * the build block itself, `npm ci && npm pack --workspaces` in a fresh clone, takes about 80 s and
 * was run by hand), laid out as the README says (the clone beside the shop's folder), and the
 * README's own blocks run in bash as written:
 *
 * - "install and start": `npm install ../momo-checkout/momo-checkout-<version>.tgz` into an empty
 *   folder, then `npx momo-checkout sandbox`, read until it prints its URL, key and secret;
 * - the server quick start (the ts block) as server.ts in that folder, importing the installed
 *   package, and "run the shop" with the values the sandbox printed where the README shows `…`:
 *   a checkout is paid and the order fulfilled.
 *
 * What changes from the text: the sandbox's PORT and the shop's port (4010 and 3000 may be taken
 * on a test machine), given as the README says (PORT for the sandbox, the URL it prints).
 *
 * Needs the npm registry for the package's dependencies and for `npx tsx`, as `npm ci` does.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.js';
import { packBackend } from '../support/packed.js';
import { until } from '../support/until.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** The README's fenced `lang` block whose first line is `marker`. */
function block(lang: 'sh' | 'ts', marker: string): string {
  const found = [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!).find((code) => code.startsWith(marker));
  assert.ok(found, `README.md has a ${lang} block starting with "${marker}"`);
  return found;
}

/** A block's commands, without its comments. */
const commands = (code: string) => code.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== '' && !line.startsWith('#'));

/** A README block run by bash in `cwd`, in a process group of its own (npx starts children). */
function runBlock(code: string, cwd: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  // A merchant's shell: none of this process's NODE_ENV (the browser build sets production, which
  // makes npm leave out devDependencies) or test runner's variables.
  const { NODE_ENV: _nodeEnv, NODE_TEST_CONTEXT: _testContext, ...shell } = process.env;
  const child = spawn('bash', ['-euc', code], { cwd, env: { ...shell, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Waits for `pattern` in a running block's output; fails with the output if it exits first. */
async function printed(run: ReturnType<typeof runBlock>, pattern: RegExp, what: string, ms: number): Promise<RegExpExecArray> {
  await until(what, () => {
    assert.equal(run.child.exitCode, null, `${what}: the block exited:\n${run.output()}`);
    return pattern.test(run.output());
  }, ms).catch((error: Error) => assert.fail(`${error.message}:\n${run.output()}`));
  return pattern.exec(run.output())!;
}

describe("README's install and start, from the tarball npm pack makes", () => {
  let dir: string;
  const running: ChildProcess[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'momo-readme-install-'));
  });
  after(() => {
    for (const child of running) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('says the packages are not on the registry yet, and builds both tarballs under the names it installs', () => {
    assert.match(readme, /Not on the npm registry yet/);
    assert.match(readme, /Once the packages are published, the build goes and the install line is `npm install\s+momo-checkout`/);
    const build = block('sh', '# momo-checkout: build the packages');
    assert.deepEqual(commands(build), ['cd momo-checkout', 'npm ci && npm pack --workspaces']);
    // npm's own names for what `npm pack --workspaces` writes here (no build: --dry-run, --ignore-scripts).
    const listed = spawnSync('npm', ['pack', '--workspaces', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const names = (JSON.parse(listed.stdout) as Array<{ filename: string }>).map((packed) => packed.filename).sort();
    assert.deepEqual(names, [`momo-checkout-${version}.tgz`, `momo-checkout-element-${version}.tgz`]);
    for (const name of names) assert.ok(build.includes(name), `the build block names ${name}`);
    assert.ok(readme.includes(`npm install ../momo-checkout/momo-checkout-element-${version}.tgz`), 'the front end installs the element tarball the build wrote');
  });

  it('installs the tarball into an empty folder, starts the sandbox, and runs the server quick start: a checkout is paid', async (t) => {
    const started = Date.now();
    // The clone, beside the shop's folder: `npm pack` leaves the tarball at its root.
    const clone = join(dir, 'momo-checkout');
    const tarball = await packBackend(dir);
    const name = `momo-checkout-${version}.tgz`;
    assert.equal(basename(tarball), name);
    renameSync(tarball, join(clone, name));
    const shop = join(dir, 'your-shop');
    mkdirSync(shop);
    t.diagnostic(`tarball built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const install = block('sh', '# momo-checkout: install and start');
    assert.deepEqual(commands(install), ['cd ../your-shop', `npm install ../momo-checkout/${name}`, 'npx momo-checkout sandbox']);
    const sandboxPort = await freePort();
    const sandbox = runBlock(install, clone, { PORT: String(sandboxPort) });
    running.push(sandbox.child);
    const url = (await printed(sandbox, /URL +(http:\/\/\S+)/, 'the sandbox to print its URL', 90_000))[1]!;
    const apiKey = (await printed(sandbox, /API key +(\S+)/, 'the API key', 5_000))[1]!;
    const webhookSecret = (await printed(sandbox, /Webhook secret +(\S+)/, 'the webhook secret', 5_000))[1]!;
    assert.equal(url, `http://127.0.0.1:${sandboxPort}`);
    t.diagnostic(`installed and sandbox up at ${((Date.now() - started) / 1000).toFixed(1)} s`);

    writeFileSync(join(shop, 'server.ts'), block('ts', '// momo-checkout: server quick start'));
    const shopPort = await freePort();
    let run = block('sh', '# momo-checkout: run the shop');
    for (const [placeholder, value] of [['http://127.0.0.1:4010', url], ['sk_test_…', apiKey], ['whsec_…', webhookSecret], ['3000', String(shopPort)]] as const) {
      assert.ok(run.includes(placeholder), `"run the shop" shows ${placeholder}`);
      run = run.replaceAll(placeholder, value);
    }
    const server = runBlock(run, shop, {});
    running.push(server.child);
    await printed(server, /shop on http/, 'the shop to listen', 60_000);

    const origin = `http://127.0.0.1:${shopPort}`;
    const page = await fetch(`${origin}/checkout`);
    assert.equal(page.status, 200);
    const token = /token="([^"]+)"/.exec(await page.text())?.[1];
    assert.ok(token, 'the order page carries a checkout token');
    const headers = { authorization: `Bearer ${token}`, origin, 'content-type': 'application/json' };
    const pay = await fetch(`${origin}/momo/checkout/pay`, { method: 'POST', headers, body: JSON.stringify({ phoneNumber: '+2290196000001', useWallet: false }) });
    assert.equal(pay.status, 200, await pay.text());
    await printed(server, /order order-42 is paid/, 'fulfil() to run for the paid order', 20_000);
    t.diagnostic(`paid at ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
