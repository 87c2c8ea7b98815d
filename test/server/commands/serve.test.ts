/**
 * `momo-checkout serve`: health and readiness, a slow body cut on time, a graceful stop, and the
 * command itself (JSON logs, where everything is, exit 0 on SIGTERM, no secret printed).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { CompanionConfigError, createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { openStoreFromEnv } from '../../../src/server/stores/store-from-env.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from '../../../src/server/commands/standalone-companion.js';
import { freePort } from '../../support/free-port.js';
import { sandboxEnv } from '../../support/sandbox-env.js';

const cli = fileURLToPath(new URL('../../../src/server/cli.ts', import.meta.url));
const serverSecret = 'serve-test-server-secret-0123456789abcdef';
const merchantSecret = `whsec_${Buffer.from('serve-test-merchant-key-of-32-bytes').toString('base64')}`;

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
});
after(async () => sandbox.close());


async function envFor(port: number): Promise<Record<string, string>> {
  return { ...sandboxEnv(sandbox, port), MOMO_SERVER_SECRET: serverSecret, MOMO_STORE: 'memory' };
}

async function until(what: string, predicate: () => boolean | Promise<boolean>, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('serve: configuration', () => {
  it('names the missing variables, the server secret among them', async () => {
    await assert.rejects(
      startStandaloneCompanion({ env: { MOMO_STORE: 'memory' }, log: silentLogger }),
      (error: unknown) => error instanceof CompanionConfigError && /MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL, MOMO_SERVER_SECRET/.test(error.message),
    );
  });

  it('keeps state in a file by default, in memory only when asked, and names a wrong store setting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'momo-serve-store-'));
    const file = await openStoreFromEnv({ MOMO_DATA_DIR: dataDir });
    assert.equal(file.kind, 'file');
    assert.match(file.describe, /momo-checkout\.sqlite/);
    await file.store.close?.();
    assert.match((await openStoreFromEnv({ MOMO_STORE: 'memory' })).describe, /memory/);
    await assert.rejects(openStoreFromEnv({ MOMO_STORE: 'postgres' }), (error: unknown) => error instanceof CompanionConfigError && /MOMO_STORE=postgres/.test(error.message));
    await assert.rejects(openStoreFromEnv({ MOMO_STORE: 'redis' }), (error: unknown) => error instanceof CompanionConfigError && /MOMO_REDIS_URL/.test(error.message));
  });
});

describe('serve: health, readiness, timeouts, stop', () => {
  let service: RunningStandaloneCompanion;
  let pingFails = false;
  let diskFull = false;
  before(async () => {
    const memory = createMemoryStore();
    const store: CheckoutStore = {
      ...memory,
      ping: async () => {
        if (pingFails) throw new Error('connection refused');
      },
      // What better-sqlite3 throws when the disk is full: reads still work, every write fails.
      probeWrite: async () => {
        if (diskFull) throw Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });
      },
    };
    service = await startStandaloneCompanion({ env: await envFor(await freePort()), store: { store, describe: 'test store' }, log: silentLogger, requestTimeoutMs: 600, headersTimeoutMs: 500 });
  });
  after(async () => service.close());

  it('/healthz is 200; /readyz is 200 once the checks pass and 503 with the reason when the store fails', async () => {
    assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
    await until('ready', async () => (await fetch(`${service.url}/readyz`)).status === 200);
    pingFails = true;
    try {
      const response = await fetch(`${service.url}/readyz`);
      assert.equal(response.status, 503);
      const body = (await response.json()) as { ready: boolean; reason: string };
      assert.equal(body.ready, false);
      assert.match(body.reason, /store unreachable \(test store\): connection refused/);
    } finally {
      pingFails = false;
    }
    assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
  });

  it('serves the operations console behind its sign-in, and its script once signed in with the server secret', async () => {
    const consoleUrl = `${service.url}/momo/console`;
    const page = await fetch(consoleUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /name="secret" type="password"/);
    assert.equal((await fetch(`${consoleUrl}/api/payments`)).status, 401);
    const signedIn = await fetch(`${consoleUrl}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: service.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: serverSecret }).toString(),
    });
    assert.equal(signedIn.status, 303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    assert.equal((await fetch(`${consoleUrl}/api/payments`, { headers: { cookie } })).status, 200);
  });

  it('/readyz is 503 while the store cannot be written (a full disk), and 200 again once it can', async () => {
    await until('ready', async () => (await fetch(`${service.url}/readyz`)).status === 200);
    diskFull = true;
    try {
      const response = await fetch(`${service.url}/readyz`);
      assert.equal(response.status, 503);
      assert.match(((await response.json()) as { reason: string }).reason, /store cannot be written \(test store\): database or disk is full/);
    } finally {
      diskFull = false;
    }
    assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
  });

  it('cuts a POST whose body never finishes (not held for minutes)', async () => {
    const slowPost = async (head: string) => {
      const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
      socket.write(`${head}Host: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"order`);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
        setTimeout(() => resolve(`still open after 8 s: ${text}`), 8_000);
      });
      socket.destroy();
      return answer;
    };
    assert.match(await slowPost(`POST /momo/server/checkouts HTTP/1.1\r\nAuthorization: Bearer ${serverSecret}\r\n`), /^HTTP\/1\.1 408/, 'server API: 408, connection closed');
    assert.match(await slowPost('POST /momo/webhook HTTP/1.1\r\n'), /^HTTP\/1\.1 408/, 'webhook route: 408, connection closed');
  });
});

describe('serve: graceful stop', () => {
  it('stops accepting, cuts status streams, waits for work under way, and closes', async () => {
    const service = await startStandaloneCompanion({ env: await envFor(await freePort()), log: silentLogger });
    const api = (path: string, body: unknown) =>
      fetch(`${service.url}/momo/server${path}`, { method: 'POST', headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = (await (await api('/checkouts', { orderId: 'stop-1', amount: '5000', currencyCode: 'XOF' })).json()) as { token: string };
    const stream = await fetch(`${service.url}/momo/checkout/events`, { headers: { authorization: `Bearer ${created.token}` } });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    await reader.read(); // the retry hint: the stream is open
    const ended = (async () => {
      try {
        while (!(await reader.read()).done);
        return 'ended';
      } catch {
        return 'cut';
      }
    })();
    await service.close();
    assert.ok(['ended', 'cut'].includes(await ended), 'the status stream was closed');
    await assert.rejects(fetch(`${service.url}/healthz`), 'no longer accepting');
  });
});

/** `momo-checkout serve` from source (`nodeArgs` before the CLI), its output kept as it comes. */
function spawnServe(env: Record<string, string>, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, cli, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output,
    exited,
    /** Waits for `what` to be said; kills the process and shows its output when it is not. */
    async awaitSaid(what: string, said: () => boolean): Promise<void> {
      try {
        await until(what, said, 20_000);
      } catch (error) {
        child.kill('SIGKILL');
        throw new Error(`${(error as Error).message}\nstdout: ${output.stdout}\nstderr: ${output.stderr}`);
      }
    },
  };
}

describe('serve: the command', () => {
  it('logs JSON lines saying where everything is and what the checks found, stops with exit 0 on SIGTERM, prints no secret', async () => {
    const port = await freePort();
    const env = {
      ...(await envFor(port)),
      MOMO_MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:9/momo-events',
      MOMO_MERCHANT_WEBHOOK_SECRET: merchantSecret,
    };
    const serve = spawnServe(env);
    await serve.awaitSaid('the setup checks to be logged', () => serve.output.stdout.includes('setup checks done'));
    serve.child.kill('SIGTERM');
    const { code } = await serve.exited;
    const { stdout, stderr } = serve.output;
    assert.equal(code, 0, `exit code 0 on SIGTERM; stderr: ${stderr}`);

    const lines = `${stdout}${stderr}`.split('\n').filter(Boolean);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>); // every line is JSON
    const start = records.find((record) => record.msg === 'momo-checkout serve: listening')!;
    assert.equal(start.pageRoutes, `http://127.0.0.1:${port}/momo/checkout`);
    assert.equal(start.serverApi, `http://127.0.0.1:${port}/momo/server`);
    assert.equal(start.openApi, `http://127.0.0.1:${port}/momo/server/openapi.json`);
    assert.equal(start.serviceWebhook, `http://127.0.0.1:${port}/momo/webhook`);
    assert.equal(start.merchantWebhook, 'http://127.0.0.1:9/momo-events');
    assert.equal(start.merchantEvents, 'payment.updated', 'the types the endpoint receives: by default payment.updated alone');
    assert.ok(records.some((record) => /^momo-checkout setup: payment service: .*answers/.test(String(record.msg))));
    assert.ok(records.some((record) => record.msg === 'momo-checkout serve: stopped'));
    for (const secret of [sandbox.apiKey, sandbox.webhookSecret, serverSecret, merchantSecret]) assert.ok(!`${stdout}${stderr}`.includes(secret), 'no secret in the logs');
  });

  it('stops with exit 0 when SIGTERM comes while its code is still loading (a restart right after a start, on a busy machine)', async () => {
    const port = await freePort();
    // slow-serve-load.mjs holds the CLI's import of serve's code for 1.5 s and says so on stderr.
    const slowLoad = fileURLToPath(new URL('../../support/slow-serve-load.mjs', import.meta.url));
    const serve = spawnServe(await envFor(port), ['--import', slowLoad]);
    await serve.awaitSaid("serve's code to be loading", () => serve.output.stderr.includes('loading serve'));
    serve.child.kill('SIGTERM');
    // Before: the signal's default action, the process killed mid-load (signal SIGTERM, no code).
    assert.deepEqual(await serve.exited, { code: 0, signal: null }, `a graceful stop, not a death by the signal; stderr: ${serve.output.stderr}`);
    // Taken during the load, the signal is applied once serve has started (logged as 'stopping once
    // started', or as 'stopping' when the load kept the event loop busy until serve's own handler
    // was in place): either way the stop of a started serve, to its end.
    const messages = serve.output.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
    assert.ok(messages.indexOf('momo-checkout serve: stopped') > messages.indexOf('momo-checkout serve: listening'), `started, then stopped: ${messages.join(' | ')}`);
    assert.ok(messages.indexOf('momo-checkout serve: listening') >= 0);
  });
});
