/**
 * docs/deploy.md section 8's layout, started for real on free loopback ports: several
 * `momo-checkout serve` processes (the guide's environment file, each with its own PORT) on one
 * PostgreSQL, the sandbox started by the guide's staging command (section 7: it trusts the test's
 * self-signed certificate, so its notifications reach the processes through the proxy over https,
 * once each, as the service's would), and the merchant's endpoint (MOMO_MERCHANT_WEBHOOK_URL),
 * which verifies and keeps what it is told. The proxy (nginx, Caddy) is started by each test.
 * Each process can be stopped as systemd stops it (SIGTERM), killed with SIGKILL, and started
 * again on its port: binding the port itself, or (`heldSockets`) on a listening socket held for
 * it alone, as section 8's `momo-checkout@.socket` holds one per process (Debian's
 * systemd-socket-activate with test/support/socket-supervisor.ts, as in socket-activation.test.ts).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';
import { holdSocket, type ProcessManager } from '../support/process-managers.js';
import { merchantWebhookSecret, startMerchantReceiver, type MerchantReceiver } from '../support/merchant-receiver.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { root } from './guide.js';
import { listening } from './nginx-runner.js';
import { startChildren, stopChild, type Children } from './children.js';
import { guideCompanionEnv, guideSandboxCommand, makeCertificate } from './stack.js';

const cli = join(root, 'src/server/cli.ts');

/** One `serve` process of the fleet, on its own port, across its restarts. */
export interface FleetProcess {
  port: number;
  /** `http://127.0.0.1:<port>`: this process itself, not the proxy. */
  url: string;
  /** Starts it (again) and waits until its /readyz answers 200. */
  start(): Promise<void>;
  /** SIGTERM, as systemd stops it; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: nothing of it runs any more once this resolves. */
  kill9(): Promise<void>;
  ready(): Promise<boolean>;
  /** How long its last start took, to /readyz 200. */
  startMs: number;
}

export interface Fleet {
  dir: string;
  cert: string;
  key: string;
  /** Where the proxy must listen: the public URL's port. */
  proxyPort: number;
  /** `https://127.0.0.1:<proxyPort>`: the companion's public origin. */
  origin: string;
  /** The guide's `127.0.0.1:8000`: nothing listens there (no shop page in these tests). */
  shopPort: number;
  /** The first process's port (the guide's `127.0.0.1:3000`). */
  companionPort: number;
  processes: FleetProcess[];
  sandboxUrl: string;
  sandboxApiKey: string;
  serverSecret: string;
  /** The merchant's endpoint (MOMO_MERCHANT_WEBHOOK_URL): each signed notification it verified. */
  merchant: MerchantReceiver;
  spawnChild(name: string, command: string, args: string[], env?: Record<string, string>): ChildProcess;
  until(what: string, probe: () => Promise<boolean>, ms?: number): Promise<void>;
  logs(): string;
  close(): Promise<void>;
}

/** How one process of the fleet is started and ended, across its restarts. */
interface Runs {
  start(): Promise<void>;
  /** Sends `signal` to the running process and resolves with its exit code once it has exited. */
  end(signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  pid(): number | undefined;
  close(): Promise<void>;
}

/** The process binds its own port (`PORT`): the port is closed while it does not run. */
function ownPortRuns(fleetChildren: Pick<Children, 'spawnChild'>, name: string, argv: string[], env: Record<string, string>): Runs {
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    async start() {
      child = fleetChildren.spawnChild(name, argv[0]!, argv.slice(1), env);
    },
    end: (signal) => (child ? stopChild(child, signal) : Promise.resolve(null)),
    pid: () => (running() ? child!.pid : undefined),
    close: async () => undefined,
  };
}

/**
 * The process takes a listening socket on `port` held for it alone, as systemd holds
 * `momo-checkout@<port>.socket` (passed under that name): while it is down, connections wait in
 * the socket's queue for its next start.
 */
async function heldSocketRuns(port: number, argv: string[], env: Record<string, string>, dir: string): Promise<Runs & { logs(): string }> {
  const manager: ProcessManager = await holdSocket(port, env, dir, `momo-checkout@${port}.socket`);
  let pid: number | undefined;
  const end = async (signal: 'SIGTERM' | 'SIGKILL') => {
    if (pid === undefined) return null;
    const ending = pid;
    try {
      process.kill(ending, signal);
    } catch {
      // Already gone (it died on its own): the supervisor has said so, with its exit code.
    }
    const code = await manager.exited(ending);
    pid = undefined;
    return code;
  };
  return {
    async start() {
      pid = await manager.start(argv);
    },
    end,
    pid: () => pid,
    logs: () => manager.logs(),
    async close() {
      // A process still running 30 s after SIGTERM (exited()'s wait) is killed.
      await end('SIGTERM').catch(() => end('SIGKILL'));
      await manager.close();
    },
  };
}

/**
 * `count` processes; `env`: added to each process's environment (MOMO_STOP_DELAY_MS behind a proxy
 * that checks /readyz); `heldSockets`: each process on a socket held for it (see the top). One
 * PostgreSQL server for the whole file, a database of the fleet's own.
 */
export async function startFleet(options: { count: number; env?: Record<string, string>; heldSockets?: boolean }): Promise<Fleet> {
  const dir = await mkdtemp(join(tmpdir(), 'momo-fleet-'));
  const { cert, key } = makeCertificate(dir);
  // The lines of each payment made, settled and delivered would crowd out what went wrong.
  const routine = /: (payin \S+ (created|completed)\b|pay-in \S+: the payer never answers|webhook \S+ completed delivered \(200\)$)|"msg":"service call"/;
  const children = startChildren(dir, { routine, logChars: 12_000 });
  const { spawnChild, stopAll } = children;
  // A held socket's process writes to a file of its own (test/support/process-managers.ts).
  const heldLogs: Array<() => string> = [];
  const logs = () => [children.logs(), ...heldLogs.map((each) => each().split('\n').filter((line) => !routine.test(line)).join('\n').slice(-6_000))].join('\n');
  const until: Fleet['until'] = (what, probe, ms) => children.until(what, probe, ms).catch((error: Error) => {
    throw heldLogs.length ? new Error(`${error.message}\n${logs().slice(-12_000)}`) : error;
  });

  let postgres: PostgresServer | undefined;
  let merchant: MerchantReceiver | undefined;
  const runs: Runs[] = [];
  const close = async () => {
    // A held socket's process is the supervisor's child, not the fleet's: ended first, by its pid.
    await Promise.all(runs.map((each) => each.close()));
    await stopAll();
    await merchant?.close();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    postgres = await startPostgresServer();
    const database = postgres.urlOf(createDatabase(postgres));
    merchant = await startMerchantReceiver();
    const [proxyPort, shopPort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
    const ports: number[] = [];
    for (let index = 0; index < options.count; index++) ports.push(await freePort());
    const origin = `https://127.0.0.1:${proxyPort}`;
    const serverSecret = randomBytes(32).toString('hex');

    const sandbox = await guideSandboxCommand(sandboxPort, cert, origin);
    spawnChild('sandbox', process.execPath, sandbox.args, sandbox.env);
    // Up before the processes start: their setup checks ask the service, and /readyz waits for them.
    await until('the sandbox to listen', () => listening(sandboxPort));

    const merchantEnv = { MOMO_MERCHANT_WEBHOOK_URL: merchant.url, MOMO_MERCHANT_WEBHOOK_SECRET: merchantWebhookSecret };
    const processes = await Promise.all(
      ports.map(async (port, index): Promise<FleetProcess> => {
        const env = { ...(await guideCompanionEnv({ origin, serverSecret, companionPort: port, sandboxPort })), MOMO_POSTGRES_URL: database, ...merchantEnv, ...options.env };
        const url = `http://127.0.0.1:${port}`;
        const argv = [process.execPath, '--import', 'tsx', cli, 'serve'];
        let each: Runs;
        if (options.heldSockets) {
          const held = await heldSocketRuns(port, argv, env, dir);
          heldLogs.push(() => `[serve ${index + 1}] ${held.logs()}`);
          each = held;
        } else {
          each = ownPortRuns({ spawnChild }, `serve ${index + 1}`, argv, env);
        }
        runs.push(each);
        const ready = async () => (await fetch(`${url}/readyz`)).status === 200;
        const handle: FleetProcess = {
          port,
          url,
          ready,
          startMs: 0,
          async start() {
            assert.equal(each.pid(), undefined, `process ${index + 1} is already running`);
            const started = Date.now();
            await each.start();
            await until(`process ${index + 1} (port ${port}) to be ready`, ready);
            handle.startMs = Date.now() - started;
          },
          stop: () => each.end('SIGTERM'),
          kill9: async () => void (await each.end('SIGKILL')),
        };
        return handle;
      }),
    );
    await Promise.all(processes.map((each) => each.start()));

    return {
      dir,
      cert,
      key,
      proxyPort,
      origin,
      shopPort,
      companionPort: ports[0]!,
      processes,
      sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
      sandboxApiKey: sandbox.env.SANDBOX_API_KEY!,
      serverSecret,
      merchant,
      spawnChild,
      until,
      logs,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
