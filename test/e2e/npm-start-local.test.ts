/**
 * Issue 11 §1-§2: `npm start` against a local stand-in of the service (the sandbox on its own
 * port) with `MOMO_ALLOW_INSECURE_LOCAL_URLS=1` starts, listens, and prints a loud warning and the
 * setup checks' results in its banner; without the switch it stops and names it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBanner } from '../../demo/banner.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';

const server = fileURLToPath(new URL('../../demo/server.ts', import.meta.url));

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
});
after(async () => sandbox.close());


/** Runs `npm start`'s script until `until` matches its output or it exits. */
function npmStart(env: Record<string, string>, until: RegExp): Promise<{ output: string; code: number | null; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', server], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (until.test(output)) resolve({ output, code: null, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('error', reject);
    child.on('close', (code) => resolve({ output, code, child }));
  });
}

describe('npm start against a local stand-in of the service', () => {
  it('starts with MOMO_ALLOW_INSECURE_LOCAL_URLS=1: a loud warning and the setup checks in the banner', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      MOMO_PUBLIC_URL: `http://127.0.0.1:${port}/momo`,
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    };
    const { output, code, child } = await npmStart(env, /Ctrl-C stops everything/);
    try {
      assert.equal(code, null, `npm start exited: ${output}`);
      assert.match(output, /LOCAL MODE \(MOMO_ALLOW_INSECURE_LOCAL_URLS=1\)/);
      assert.match(output, /real payment service drops every notification/);
      assert.match(output, /ok +payment service: /, 'the checks ran at start and are in the banner');
      assert.match(output, /WARN +public URL: /);
      assert.ok(!output.includes(sandbox.apiKey), 'the key is never printed');
      const page = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
      assert.equal(page.status, 200, 'the shop answers');
      await page.arrayBuffer();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('without the switch, stops and names it', async () => {
    const port = await freePort();
    const { output, code } = await npmStart(
      { PORT: String(port), MOMO_BASE_URL: sandbox.url, MOMO_API_KEY: sandbox.apiKey, MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret, MOMO_PUBLIC_URL: `http://127.0.0.1:${port}/momo` },
      /$^/,
    );
    assert.equal(code, 1);
    assert.match(output, /MOMO_ALLOW_INSECURE_LOCAL_URLS=1/);
  });
});

describe('the start banner', () => {
  const demo = { url: 'http://127.0.0.1:8080', bundle: { code: Buffer.from(''), gzipBytes: 28_000, buildMs: 900 } };

  it('shows the setup checks against the sandbox, in the doctor format', () => {
    const lines = startBanner({ demo: { ...demo, service: { kind: 'sandbox', url: demo.url } }, checks: [{ name: 'payment service', status: 'ok', message: 'answers' }] });
    assert.ok(lines.includes('    ok    payment service: answers'), lines.join('\n'));
    assert.ok(lines.some((line) => /Setup: every check passed/.test(line)));
    assert.ok(!lines.some((line) => /LOCAL MODE/.test(line)));
  });

  it('warns loudly in local mode, and not against the real service', () => {
    const service = { kind: 'service' as const, url: 'http://127.0.0.1:4010' };
    const local = startBanner({ demo: { ...demo, service }, checks: [], publicUrl: 'http://127.0.0.1:8080/momo', insecureLocal: true });
    assert.ok(local.some((line) => /!!! LOCAL MODE/.test(line)));
    const real = startBanner({ demo: { ...demo, service: { kind: 'service', url: 'https://api.example' } }, checks: [], publicUrl: 'https://shop.example/momo' });
    assert.ok(!real.some((line) => /LOCAL MODE/.test(line)));
    assert.ok(real.some((line) => /real prompts, real money/.test(line)));
    assert.ok(real.includes('  Webhooks at     https://shop.example/momo/webhook'));
  });
});
