/**
 * How `serve` hands over to the next process (issue 52): the service manager's socket
 * (`LISTEN_FDS`, read by commands/inherited-socket.ts), and the stop delay a load balancer that
 * checks `/readyz` needs (`MOMO_STOP_DELAY_MS`), and how long an idle kept-alive connection stays
 * open (`MOMO_KEEP_ALIVE_TIMEOUT_MS`: the proxy in front must close it first). The restarts under a stream of notifications are in
 * test/deploy/socket-activation.test.ts.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { CompanionConfigError } from '../../../src/server/index.js';
import { silentLogger } from '../../../src/server/log.js';
import { forgetInheritedSocket, inheritedSocketFrom } from '../../../src/server/commands/inherited-socket.js';
import { startStandaloneCompanion } from '../../../src/server/commands/standalone-companion.js';
import { standaloneOptionsFromEnv } from '../../../src/server/commands/standalone-options.js';
import { freePort } from '../../support/free-port.js';
import { sandboxEnv } from '../../support/sandbox-env.js';

const serverSecret = 'stop-test-server-secret-0123456789abcdef';

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
});
after(async () => sandbox.close());

describe("serve: the service manager's socket (LISTEN_FDS)", () => {
  it('takes descriptor 3 and its name when the variables are meant for this process, and none when they are absent', () => {
    assert.equal(inheritedSocketFrom({}, 42), undefined);
    assert.equal(inheritedSocketFrom({ LISTEN_FDS: '' }, 42), undefined);
    assert.deepEqual(inheritedSocketFrom({ LISTEN_FDS: '1', LISTEN_PID: '42', LISTEN_FDNAMES: 'momo-checkout.socket' }, 42), { fd: 3, name: 'momo-checkout.socket' });
    assert.deepEqual(inheritedSocketFrom({ LISTEN_FDS: '1' }, 42), { fd: 3 }, 'a manager that sets no LISTEN_PID');
  });

  it('refuses a socket meant for another process, several sockets, or a malformed count, saying what to change', () => {
    assert.throws(() => inheritedSocketFrom({ LISTEN_FDS: '1', LISTEN_PID: '41' }, 42), (error: unknown) => error instanceof CompanionConfigError && /not this one \(42\)/.test(error.message) && /not through npx/.test(error.message));
    assert.throws(() => inheritedSocketFrom({ LISTEN_FDS: '2', LISTEN_PID: '42', LISTEN_FDNAMES: 'a:b' }, 42), /passed 2 sockets .*a:b.*single ListenStream=/);
    assert.throws(() => inheritedSocketFrom({ LISTEN_FDS: 'one', LISTEN_PID: '42' }, 42), /LISTEN_FDS is "one"/);
  });

  it('forgets the variables once taken, so no program it starts believes the socket is its own', () => {
    const env: Record<string, string | undefined> = { LISTEN_FDS: '1', LISTEN_PID: '42', LISTEN_FDNAMES: 'x', KEEP: 'y' };
    forgetInheritedSocket(env);
    assert.deepEqual(env, { KEEP: 'y' });
  });
});

describe('serve: MOMO_STOP_DELAY_MS', () => {
  it('is 0 by default, and refused with what to write when it is not a number of milliseconds up to 20000', () => {
    const env = { ...sandboxEnv(sandbox, 3000), MOMO_SERVER_SECRET: serverSecret };
    assert.equal(standaloneOptionsFromEnv(env).stopDelayMs, 0);
    assert.equal(standaloneOptionsFromEnv({ ...env, MOMO_STOP_DELAY_MS: '3000' }).stopDelayMs, 3000);
    for (const wrong of ['3s', '-1', '60000']) {
      assert.throws(() => standaloneOptionsFromEnv({ ...env, MOMO_STOP_DELAY_MS: wrong }), /MOMO_STOP_DELAY_MS is .*health-check interval/);
    }
  });

  it('answers /readyz 503 at once on a stop and keeps serving for the delay, then stops accepting', async () => {
    const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: serverSecret, MOMO_STORE: 'memory', MOMO_STOP_DELAY_MS: '1500' };
    const service = await startStandaloneCompanion({ env, log: silentLogger });
    const ready = async () => (await fetch(`${service.url}/readyz`)).status;
    const end = Date.now() + 8_000;
    while ((await ready()) !== 200 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await ready(), 200);
    const closing = service.close();
    const stoppedAt = Date.now();
    assert.equal(await ready(), 503, 'the load balancer sees it stopping');
    const created = await fetch(`${service.url}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'stop-delay-1', amount: '5000', currencyCode: 'XOF' }),
    });
    assert.equal(created.status, 200, 'work that still arrives during the delay is done');
    await closing;
    assert.ok(Date.now() - stoppedAt >= 1_400, 'the stop waited for the delay');
    await assert.rejects(fetch(`${service.url}/healthz`), 'no longer accepting');
  });
});

describe('serve: MOMO_KEEP_ALIVE_TIMEOUT_MS', () => {
  it('is 5000 by default, and refused with what to write when it is not a number of milliseconds from 1000', () => {
    const env = { ...sandboxEnv(sandbox, 3000), MOMO_SERVER_SECRET: serverSecret };
    assert.equal(standaloneOptionsFromEnv(env).keepAliveTimeoutMs, 5_000);
    assert.equal(standaloneOptionsFromEnv({ ...env, MOMO_KEEP_ALIVE_TIMEOUT_MS: '65000' }).keepAliveTimeoutMs, 65_000);
    for (const wrong of ['65s', '999', '5000000']) {
      assert.throws(() => standaloneOptionsFromEnv({ ...env, MOMO_KEEP_ALIVE_TIMEOUT_MS: wrong }), /MOMO_KEEP_ALIVE_TIMEOUT_MS is .*longer than the idle timeout of the proxy.*65000/);
    }
  });

  it('keeps an idle connection open that long, and says so; a shorter one is closed by serve', async () => {
    /** One request on `socket`, and its answer's head. */
    const ask = (socket: Socket) =>
      new Promise<string>((resolve, reject) => {
        socket.once('data', (chunk) => resolve(chunk.toString()));
        socket.once('error', reject);
        socket.write('GET /healthz HTTP/1.1\r\nHost: shop.test\r\n\r\n');
      });
    const open = async (keepAliveMs: string) => {
      const env = { ...sandboxEnv(sandbox, await freePort()), MOMO_SERVER_SECRET: serverSecret, MOMO_STORE: 'memory', MOMO_KEEP_ALIVE_TIMEOUT_MS: keepAliveMs };
      // A headers timeout (0.5 s) far below the idle time: an idle connection is not a slow request.
      const service = await startStandaloneCompanion({ env, log: silentLogger, headersTimeoutMs: 500, requestTimeoutMs: 600 });
      const port = Number(new URL(service.url).port);
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      return { service, socket };
    };
    const long = await open('4000');
    try {
      assert.match(await ask(long.socket), /^HTTP\/1\.1 200[\s\S]*\r\nKeep-Alive: timeout=4\r\n/i);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.match(await ask(long.socket), /^HTTP\/1\.1 200/, 'answered on the same connection after 2.5 s idle');
    } finally {
      long.socket.destroy();
      await long.service.close();
    }
    const short = await open('1000');
    try {
      assert.match(await ask(short.socket), /Keep-Alive: timeout=1\r\n/i);
      const closedAt = Date.now();
      await new Promise((resolve) => short.socket.once('end', resolve));
      assert.ok(Date.now() - closedAt < 2_500, 'serve closed the idle connection after about a second (Node adds up to a second)');
    } finally {
      short.socket.destroy();
      await short.service.close();
    }
  });
});
