/**
 * The package installs and runs with install scripts off (npm 12 blocks them by default, npm 11
 * warns): the files `npm pack` would publish are built into a staging folder and packed, the
 * tarball is installed into an empty app with `--ignore-scripts`, and `momo-checkout serve` from
 * that install starts on its default store (a SQLite file: better-sqlite3's binary must come
 * inside the package, since nothing was compiled) and creates a checkout through the server API.
 *
 * Needs the npm registry for the package's dependencies, as `npm ci` does.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';
import { sandboxEnv } from '../support/sandbox-env.js';
import { packBackend, run } from '../support/packed.js';

const serverSecret = 'install-test-server-secret-0123456789abcdef';

describe('an install with --ignore-scripts', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let serve: ChildProcess | undefined;
  let logs = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'momo-install-'));
    sandbox = await startSandbox({ port: 0, log: () => {} });
  });
  after(async () => {
    if (serve && serve.exitCode === null) serve.kill('SIGKILL');
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs momo-checkout serve on the default file store and creates a checkout', async () => {
    const tarball = await packBackend(dir);
    assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);

    const app = join(dir, 'shop');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shop', private: true }));
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', tarball], app);
    // Nothing was compiled: the driver's binary is the one inside the package.
    assert.equal(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build')), false);

    const port = await freePort();
    serve = spawn(join(app, 'node_modules', '.bin', 'momo-checkout'), ['serve'], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        ...sandboxEnv(sandbox, port),
        MOMO_SERVER_SECRET: serverSecret,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serve.stdout!.on('data', (chunk) => (logs += chunk));
    serve.stderr!.on('data', (chunk) => (logs += chunk));

    const deadline = Date.now() + 30_000;
    while ((await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.status, () => 0)) !== 200) {
      assert.equal(serve.exitCode, null, `momo-checkout serve exited early:\n${logs}`);
      assert.ok(Date.now() < deadline, `momo-checkout serve was not ready in 30 s:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const response = await fetch(`http://127.0.0.1:${port}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'install-test-1', amount: '5000', currencyCode: 'XOF' }),
    });
    const body = (await response.json()) as { token?: string };
    assert.equal(response.status, 200, `create checkout: ${JSON.stringify(body)}\n${logs}`);
    assert.equal(typeof body.token, 'string');
    // The default store: a SQLite file in the app's ./.momo-checkout.
    assert.ok(existsSync(join(app, '.momo-checkout', 'momo-checkout.sqlite')), 'the default file store is on disk');

    const exited = new Promise<number | null>((resolve) => serve!.once('close', resolve));
    serve.kill('SIGTERM');
    assert.equal(await exited, 0, `momo-checkout serve stops cleanly on SIGTERM:\n${logs}`);
  });
});
