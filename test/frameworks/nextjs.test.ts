/**
 * examples/nextjs (Next.js 16 App Router, React 19): installed from the registry with both packed
 * packages, `tsc` strict, `next build` with no MOMO_* variable (the companion is created on first
 * use), then `next start` against a sandbox: the server page creates the checkout, the client
 * component's wrapper takes the payment in Chromium and its `onMomoSucceeded` leads to /thanks.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';
import { packBackend, packElement } from '../support/packed.js';
import { installExample, npmRun, payInChromium } from './harness.js';

describe('examples/nextjs', () => {
  let dir: string;
  let app: string;
  let sandbox: RunningSandbox | undefined;
  let next: ChildProcess | undefined;
  let logs = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'momo-nextjs-'));
    const [element, backend] = [await packElement(dir), await packBackend(dir)];
    app = await installExample('nextjs', dir, { '@momo-checkout/element': element, 'momo-checkout': backend });
  });
  after(async () => {
    if (next?.pid !== undefined && next.exitCode === null) {
      const closed = new Promise((resolve) => next!.once('close', resolve));
      process.kill(-next.pid, 'SIGTERM');
      await closed;
    }
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks strictly', async () => {
    await npmRun(app, 'typecheck');
  });

  it('builds with no payment settings, and the build creates no companion', async () => {
    const output = await npmRun(app, 'build');
    assert.doesNotMatch(output, /momo-checkout|MOMO_/, 'the build neither created a companion nor asked for its settings');
  });

  it('serves a checkout page that a payer pays in Chromium', async () => {
    sandbox = await startSandbox({ port: 0, pushDelayMs: 300, log: () => {} });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    next = spawn(join(app, 'node_modules', '.bin', 'next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        MOMO_BASE_URL: sandbox.url,
        MOMO_API_KEY: sandbox.apiKey,
        MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
        MOMO_PUBLIC_URL: `${url}/momo`,
        MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
        MOMO_DATA_DIR: join(dir, 'data'),
      },
    });
    next.stdout!.on('data', (chunk) => (logs += chunk));
    next.stderr!.on('data', (chunk) => (logs += chunk));
    const deadline = Date.now() + 60_000;
    while ((await fetch(`${url}/thanks`).then((response) => response.status, () => 0)) !== 200) {
      assert.equal(next.exitCode, null, `next start exited:\n${logs}`);
      assert.ok(Date.now() < deadline, `next start did not answer in 60 s:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const orderId = `next-${process.pid}-${Date.now()}`;
    const html = await (await fetch(`${url}/checkout?order=${orderId}`)).text();
    assert.match(html, /<momo-checkout[^>]*>/, 'the server-rendered page holds the element (empty until the browser runs it)');
    await payInChromium(`${url}/checkout?order=${orderId}-paid`, new RegExp(`Thank you: order ${orderId}-paid is paid\\.`)).catch((error: Error) => {
      throw new Error(`${error.message}\n--- next start ---\n${logs.slice(-4000)}`);
    });
  });
});
