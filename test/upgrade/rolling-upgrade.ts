/**
 * A rolling upgrade (issue 52), whatever the store: the previous release's `momo-checkout serve`
 * (releases/companions/, scripts/previous-release.ts) and this version's, on one store behind one
 * front, as a load balancer sees them while processes are replaced one at a time:
 *
 * 1. the previous release alone makes the store (its schema, where it has one), and payments flow
 *    through it;
 * 2. this version starts beside it while payments keep flowing, and migrates the store under it;
 * 3. both serve: checkouts created on either, pays and the service's notifications spread by the
 *    front over both, deliveries made by whichever process leases them first;
 * 4. the previous release's process is restarted on the migrated store (a crash, a deploy that
 *    rolls back, a host rebooted mid-upgrade): it must start, and it serves payments again.
 *
 * Every payment, whichever process created it, is paid (the sandbox approves), applied once, and
 * delivered once per state to the merchant's endpoint (MOMO_MERCHANT_WEBHOOK_URL). One small test
 * file per store says how to reach it (rolling-upgrade-postgres, -file, -redis.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';
import { unpackPreviousRelease, type PreviousRelease } from '../support/previous-release.js';
import { until } from '../support/until.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const approve = '+2290196000001';
const shop = 'http://shop.test';
const serverSecret = randomBytes(24).toString('base64url');
const merchantSecret = `whsec_${randomBytes(32).toString('base64')}`;

/** The store both releases share, as one test file gives it. */
export interface RollingStore {
  /** In the test's name: `PostgreSQL`, `the file store`, `Redis`. */
  name: string;
  /** The variables that put `serve` on the store; read inside the test (a server started in a before hook). */
  env(): Record<string, string>;
  /**
   * What every release reads at start and refuses when it is above the schema it knows (PostgreSQL's
   * `schema_version`, the file's `user_version`): it must still say what the previous release knows
   * once this one has migrated. Absent where the store keeps none (Redis).
   */
  readersVersion?(): Promise<number>;
  /** Checked once this version has started beside the previous one (that it migrated, say). */
  upgraded?(fresh: Serve, readersBefore: number | undefined): void | Promise<void>;
}

export interface Serve {
  release: string;
  port: number;
  base: string;
  child: ChildProcess;
  logs(): string;
  /** SIGTERM, and the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** The front: round robin over the processes in service, as a load balancer's pool. */
function startFront(inService: () => number[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const server = createServer((req, res) => {
    const ports = inService();
    const port = ports[next++ % ports.length]!;
    const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

interface Delivery {
  id: string;
  orderId: string;
  state: string;
}

/** The merchant's endpoint: every signed notification it is sent, answered 200. */
function startReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { orderId: string; payment: { state: string } } };
      if (event.type === 'payment.updated') deliveries.push({ id: String(req.headers['webhook-id']), orderId: event.data.orderId, state: event.data.payment.state });
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/momo-events`, deliveries })),
  );
}

/** The test: the previous release and this one behind one front, on `store`. */
export function describeRollingUpgrade(store: RollingStore): void {
  describe(`a rolling upgrade on ${store.name}: the previous release beside this one`, () => {
    let previous: PreviousRelease;
    let sandbox: RunningSandbox;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let front: Server;
    let frontBase: string;
    const inService: Serve[] = [];
    const started: Serve[] = [];

    const envFor = (port: number) => ({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      MOMO_BASE_URL: sandbox.url,
      MOMO_API_KEY: sandbox.apiKey,
      MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
      // Every process answers under the front's URL: the service posts each notification there.
      MOMO_PUBLIC_URL: frontBase,
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
      MOMO_ALLOWED_ORIGINS: shop,
      MOMO_SERVER_SECRET: serverSecret,
      MOMO_MERCHANT_WEBHOOK_URL: receiver.url,
      MOMO_MERCHANT_WEBHOOK_SECRET: merchantSecret,
      ...store.env(),
      HOST: '127.0.0.1',
      PORT: String(port),
    });

    /** `momo-checkout serve` of the previous release or of this one, ready (its /readyz says so). */
    async function serve(release: 'previous' | 'this', port?: number): Promise<Serve> {
      const listenOn = port ?? (await freePort());
      const args = release === 'previous' ? [previous.cli, 'serve'] : ['--import', 'tsx', join(root, 'src/server/cli.ts'), 'serve'];
      const child = spawn(process.execPath, args, { env: envFor(listenOn), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk) => (output = (output + String(chunk)).slice(-20_000)));
      child.stderr!.on('data', (chunk) => (output = (output + String(chunk)).slice(-20_000)));
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      const name = release === 'previous' ? `momo-checkout ${previous.version}` : 'this momo-checkout';
      const running: Serve = {
        release: name,
        port: listenOn,
        base: `http://127.0.0.1:${listenOn}/momo`,
        child,
        logs: () => output,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      };
      started.push(running);
      let gone: number | null | undefined;
      void exited.then((code) => (gone = code));
      try {
        await until(`${name} to be ready`, async () => {
          if (gone !== undefined) throw new Error(`${name} exited (code ${gone}) instead of starting:\n${output}`);
          return (await fetch(`http://127.0.0.1:${listenOn}/readyz`).catch(() => undefined))?.status === 200;
        }, 30_000);
      } catch (error) {
        child.kill('SIGKILL');
        throw error;
      }
      return running;
    }

    /** A checkout created on `on` through its server API, and paid through the front. */
    async function payOn(on: Serve, orderId: string): Promise<void> {
      const created = await fetch(`${on.base}/server/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
      });
      assert.equal(created.status, 200, `${on.release} created ${orderId}: ${await created.clone().text()}`);
      const { token } = (await created.json()) as { token: string };
      const paid = await fetch(`${frontBase}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: shop, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: approve, useWallet: false }),
      });
      const body = await paid.text();
      assert.equal(paid.status, 200, `${orderId}'s pay: ${body}`);
    }

    /**
     * Orders created one after another on the processes in service, in turn, until `stop()`; `count()`
     * throws as soon as one failed (the test stops there, not at a timeout).
     */
    function flow(prefix: string, createdOn: Map<string, string>) {
      let running = true;
      let count = 0;
      let failure: unknown;
      const done = (async () => {
        while (running) {
          const on = inService[count % inService.length]!;
          const orderId = `${prefix}-${++count}`;
          createdOn.set(orderId, on.release);
          await payOn(on, orderId);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })().catch((error: unknown) => {
        failure = error;
      });
      return {
        count: () => {
          if (failure) throw failure;
          return count;
        },
        stop: async () => {
          running = false;
          await done;
          if (failure) throw failure;
        },
      };
    }

    before(async () => {
      previous = unpackPreviousRelease();
      sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
      receiver = await startReceiver();
      const started = await startFront(() => inService.map((each) => each.port));
      front = started.server;
      frontBase = `http://127.0.0.1:${started.port}/momo`;
    });

    after(async () => {
      for (const each of started) {
        if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
      }
      front?.closeAllConnections();
      await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
      receiver?.server.closeAllConnections();
      await new Promise<void>((resolve) => (receiver ? receiver.server.close(() => resolve()) : resolve()));
      await sandbox?.close();
      previous?.remove();
    });

    it('pays, applies and delivers once every payment created on either, and the previous release restarted after the migration still starts', { timeout: 240_000 }, async (t) => {
      const createdOn = new Map<string, string>();
      // 1. The previous release alone: it makes the store as it knows it.
      const old = await serve('previous');
      inService.push(old);
      const before = await store.readersVersion?.();

      // 2. Payments flow through it while this version starts and migrates the store.
      const first = flow('rolling-a', createdOn);
      await until('payments to flow on the previous release', () => first.count() >= 3, 20_000);
      const fresh = await serve('this');
      await store.upgraded?.(fresh, before);

      // 3. Both in service: checkouts created on each in turn, pays and notifications spread over both.
      inService.push(fresh);
      const both = first.count();
      await until('payments created on both processes', () => first.count() >= both + 8, 30_000);
      await first.stop();

      // 4. The previous release's process restarted on the migrated store, its port the same.
      inService.splice(inService.indexOf(old), 1);
      const second = flow('rolling-b', createdOn);
      assert.equal(await old.stop(), 0, `momo-checkout ${previous.version} stopped cleanly:\n${old.logs()}`);
      const restarted = await serve('previous', old.port);
      assert.doesNotMatch(restarted.logs(), /by a newer momo-checkout/);
      inService.push(restarted);
      const again = second.count();
      await until('payments created on both again', () => second.count() >= again + 6, 30_000);
      await second.stop();

      // What let it start: the version every release reads still says what it knows.
      if (store.readersVersion) assert.equal(await store.readersVersion(), before, `the store still says what momo-checkout ${previous.version} knows`);
      const releases = new Set(createdOn.values());
      assert.deepEqual([...releases].sort(), [`momo-checkout ${previous.version}`, 'this momo-checkout'].sort(), 'payments were created on both releases');
      assert.ok([...createdOn.keys()].some((orderId) => orderId.startsWith('rolling-b') && createdOn.get(orderId) === restarted.release), 'the restarted process created payments');

      // Every payment paid and its completion delivered, each state once, whoever applied and sent it.
      const completed = () => new Set(receiver.deliveries.filter((each) => each.state === 'completed').map((each) => each.orderId));
      await until(`every payment's completion delivered (${createdOn.size})`, () => completed().size === createdOn.size, 60_000);
      // A delivery sent twice (a lease taken by both processes) would arrive within their retry delay.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const perState = new Map<string, number>();
      for (const each of receiver.deliveries) perState.set(`${each.orderId} ${each.state}`, (perState.get(`${each.orderId} ${each.state}`) ?? 0) + 1);
      assert.deepEqual([...perState].filter(([, count]) => count !== 1), [], 'each order and state delivered once');
      assert.equal(new Set(receiver.deliveries.map((each) => each.id)).size, receiver.deliveries.length, 'no notification sent twice');
      assert.deepEqual([...completed()].sort(), [...createdOn.keys()].sort());
      t.diagnostic(`${createdOn.size} payments, ${[...createdOn.values()].filter((release) => release === 'this momo-checkout').length} created on this version, ${receiver.deliveries.length} deliveries`);
      // Applied once: each order reached the service once, and the store holds it completed.
      for (const orderId of createdOn.keys()) {
        assert.equal(sandbox.control.transactions().filter((entry) => entry.orderId === orderId).length, 1, `${orderId}: one pay-in`);
        const read = await fetch(`${frontBase}/server/payments/${orderId}`, { headers: { authorization: `Bearer ${serverSecret}` } });
        assert.equal(((await read.json()) as { payment: { state: string } }).payment.state, 'completed', orderId);
      }
    });
  });
}
