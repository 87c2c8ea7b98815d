/** `npx momo-checkout doctor` reads the environment, prints each check with its fix, exits 1 on a failure. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';

const cli = fileURLToPath(new URL('../../../src/server/cli.ts', import.meta.url));

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
});
after(async () => sandbox.close());

function doctor(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'doctor'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('momo-checkout doctor', () => {
  it('names the missing variables', async () => {
    const { code, output } = await doctor({});
    assert.equal(code, 1);
    assert.match(output, /MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL/);
  });

  it('flags an http, loopback public URL and passes the key check, without printing the key', async () => {
    const { code, output } = await doctor({
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      MOMO_PUBLIC_URL: 'http://127.0.0.1:8080/momo',
    });
    assert.equal(code, 1);
    assert.match(output, /ok +payment service/);
    assert.match(output, /FAIL +public URL: .*https/);
    assert.match(output, /WARN +API key mode: sk_test_ keys are live/);
    assert.ok(!output.includes(sandbox.apiKey));
    assert.ok(!output.includes(sandbox.webhookSecret));
  });
});
