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

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
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

const doctor = (env: Record<string, string>) => run(['doctor'], env);

describe('momo-checkout doctor', () => {
  it('names the missing variables', async () => {
    const { code, output } = await doctor({});
    assert.equal(code, 1);
    // The Node line comes even when the configuration cannot be read.
    assert.match(output, new RegExp(`ok +node: Node ${process.versions.node.replaceAll('.', '\\.')} \\(needs 22 or newer\\)`));
    for (const name of ['MOMO_BASE_URL', 'MOMO_API_KEY', 'MOMO_WEBHOOK_SECRETS', 'MOMO_PUBLIC_URL']) assert.match(output, new RegExp(`FAIL +${name}: ${name} is not set`));
  });

  it('reports every malformed variable in one run, with a hint for a /v1 suffix', async () => {
    const { code, output } = await doctor({
      MOMO_BASE_URL: 'https://api.example.com/v1',
      MOMO_API_KEY: 'sk_live_x',
      MOMO_WEBHOOK_SECRETS: 'whsec_a',
      MOMO_PUBLIC_URL: 'shop.example/momo',
      PORT: 'eighty',
    });
    assert.equal(code, 1);
    assert.match(output, /FAIL +MOMO_BASE_URL: .*ends in \/v1/);
    assert.match(output, /FAIL +MOMO_PUBLIC_URL: .*not an http\(s\) URL/);
    assert.match(output, /FAIL +PORT: /);
  });

  it('refuses an http loopback public URL without the local switch, and says which switch', async () => {
    const { code, output } = await doctor({
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      MOMO_PUBLIC_URL: 'http://127.0.0.1:8080/momo',
    });
    assert.equal(code, 1);
    assert.match(output, /FAIL +MOMO_PUBLIC_URL: .*MOMO_ALLOW_INSECURE_LOCAL_URLS=1/);
    assert.ok(!output.includes(sandbox.apiKey));
  });

  it('local mode: passes a loopback setup against the sandbox, with a warning and no "live key" alarm', async () => {
    const { code, output } = await doctor({
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      MOMO_PUBLIC_URL: 'http://127.0.0.1:8080/momo',
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    });
    assert.equal(code, 0, output);
    assert.match(output, /ok +payment service/);
    assert.match(output, /WARN +public URL: .*real service drops every notification/);
    assert.doesNotMatch(output, /API key mode|npm run sandbox|§/);
    assert.ok(!output.includes(sandbox.apiKey), 'the key is never printed');
    assert.ok(!output.includes(sandbox.webhookSecret), 'the secret is never printed');
  });
});

describe('momo-checkout doctor: what serve adds, and who may use the checkout', () => {
  const local = () => ({
    MOMO_BASE_URL: sandbox.url,
    MOMO_API_KEY: sandbox.apiKey,
    MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
    MOMO_PUBLIC_URL: 'http://127.0.0.1:8787/momo',
    MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
  });

  it("says which pages may use the checkout, and never advises the merchant endpoint's origin as a page origin", async () => {
    const { code, output } = await doctor({
      ...local(),
      MOMO_SERVER_SECRET: 'x'.repeat(40),
      MOMO_MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:8000/momo-events',
      MOMO_MERCHANT_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
    assert.equal(code, 0, output);
    assert.match(output, /WARN +allowed origins: MOMO_ALLOWED_ORIGINS is not set: only pages on http:\/\/127\.0\.0\.1:8787 may use the checkout/);
    assert.doesNotMatch(output, /MOMO_ALLOWED_ORIGINS=http:\/\/127\.0\.0\.1:8000/, 'the endpoint is a backend address, not where the pages are');
    assert.match(output, /ok +server secret/);
    assert.match(output, /ok +merchant notifications: .*momo-checkout ping/);
  });

  it('--sandbox checks the setup of serve --sandbox: no service variable asked for, and the service variables refused', async () => {
    const good = await run(['doctor', '--sandbox'], { MOMO_ALLOWED_ORIGINS: 'http://127.0.0.1:8000', PORT: '0' });
    assert.equal(good.code, 0, good.output);
    assert.doesNotMatch(good.output, /FAIL/);
    assert.match(good.output, /ok +server secret: made at each start/);
    assert.match(good.output, /ok +store: state is kept in memory/);
    const mixed = await run(['doctor', '--sandbox'], { MOMO_BASE_URL: 'https://api.example', PORT: '0' });
    assert.equal(mixed.code, 1);
    assert.match(mixed.output, /FAIL +configuration: serve --sandbox talks to its own simulator: unset MOMO_BASE_URL and MOMO_API_KEY/);
  });

  it('checks a PostgreSQL store even when the rest of the configuration is missing', async () => {
    const { code, output } = await doctor({ MOMO_POSTGRES_URL: 'postgres://momo:secret@127.0.0.1:9/momo' });
    assert.equal(code, 1);
    assert.match(output, /FAIL +MOMO_BASE_URL/);
    assert.match(output, /FAIL +store: .*127\.0\.0\.1:9/);
    assert.doesNotMatch(output, /secret@/, 'the password is not printed');
  });

  it('reports a short server secret and a lone webhook URL with the rest, in one run', async () => {
    const { code, output } = await doctor({
      ...local(),
      MOMO_ALLOWED_ORIGINS: 'http://127.0.0.1:8000',
      MOMO_SERVER_SECRET: 'short',
      MOMO_MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:8000/momo-events',
    });
    assert.equal(code, 1, output);
    assert.match(output, /ok +allowed origins: pages on http:\/\/127\.0\.0\.1:8000/);
    assert.match(output, /FAIL +server secret: .*at least 32 characters.*openssl rand -hex 32/);
    assert.match(output, /FAIL +merchant notifications: .*set both, or neither/);
  });

  it('says these too when the base configuration is broken', async () => {
    const { code, output } = await doctor({ MOMO_PUBLIC_URL: 'http://127.0.0.1:8787/momo' });
    assert.equal(code, 1);
    assert.match(output, /WARN +server secret: MOMO_SERVER_SECRET is not set/);
  });
});

describe('momo-checkout sandbox', () => {
  it('starts the simulator and prints the variables that point a companion at it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'sandbox'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes('MOMO_ALLOW_INSECURE_LOCAL_URLS=1') && output.includes('Test numbers')) resolve();
        });
        child.on('error', reject);
        child.on('close', (code) => reject(new Error(`the sandbox exited (${code}): ${output}`)));
      });
      const baseUrl = /MOMO_BASE_URL=(\S+)/.exec(output)?.[1];
      const apiKey = /MOMO_API_KEY=(\S+)/.exec(output)?.[1];
      assert.ok(baseUrl && apiKey, output);
      const answer = await fetch(`${baseUrl}/v1/operators`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(answer.status, 200, 'the printed URL and key work');
      await answer.arrayBuffer();
      assert.match(output, /LOCAL SIMULATOR/);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('lists its commands for an unknown one', async () => {
    const { code, output } = await run(['serve-all'], {});
    assert.equal(code, 2);
    assert.match(output, /momo-checkout doctor/);
    assert.match(output, /momo-checkout sandbox/);
  });
});
