/**
 * A real, throwaway PostgreSQL for tests and the store benchmark, like redis-server.ts: Debian's
 * `initdb` and `pg_ctl` (run as the `postgres` user when this process is root: PostgreSQL refuses
 * to run as root) into a temporary folder, listening on a free port on 127.0.0.1 only, a superuser
 * `momo` with trust authentication, removed by `stop()` or killed when the test process exits.
 * Missing PostgreSQL is an error, never a silent skip: a test that did not run must not look like
 * a test that passed.
 *
 * `halt()` and `restart()` stop and start the same cluster (same data, same port), for the fault
 * runs: `halt('immediate')` is a crash of the server (no shutdown checkpoint; recovery replays the
 * WAL at the next start), `halt('fast')` an orderly stop that still cuts every connection;
 * `freeze()` and `thaw()` stop and resume its processes (a server that no longer answers).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { freePort } from './free-port.js';

export interface PostgresServer {
  /** `postgres://momo@127.0.0.1:<port>/postgres` (the superuser; tests make their own databases). */
  url: string;
  port: number;
  /** The URL of database `name` on this server, as `user` (default the superuser). */
  urlOf(name: string, user?: string): string;
  /** Runs SQL as the superuser through psql (creating databases and roles, a shop's own tables). */
  psql(sql: string, database?: string): string;
  /** Stops the server, keeping its data: `immediate` is a crash, `fast` an orderly stop. */
  halt(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again on the same port with the same data. */
  restart(): Promise<void>;
  /**
   * Freezes the server (SIGSTOP to the postmaster and every backend): connections stay open and
   * nothing answers, as a server stuck on its disk or a host paused. `thaw()` resumes them.
   */
  freeze(): void;
  thaw(): void;
  /** The postmaster's pid and its children's (the backends and workers), for a bench's CPU count. */
  processes(): number[];
  stop(): Promise<void>;
}

export class PostgresMissingError extends Error {
  override name = 'PostgresMissingError';
}

const bin = process.env.MOMO_TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

function assertInstalled(): void {
  if (!existsSync(join(bin, 'initdb')) || !existsSync(join(bin, 'pg_ctl'))) {
    throw new PostgresMissingError(
      `PostgreSQL is not installed (no ${bin}/initdb): install it with \`apt-get install -y postgresql\`, or set MOMO_TEST_POSTGRES_BIN to the folder holding initdb and pg_ctl. ` +
        'The Postgres store tests need a real server and are never skipped.',
    );
  }
}

/** The uid and gid to run PostgreSQL as: ours, or the `postgres` user's when we are root. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * `run` without blocking the event loop: the companion under test keeps running while the server
 * stops or starts (its reconnection timers fire on their own schedule, as beside a real server).
 */
function runAsync(command: string, args: string[], cwd: string, user: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(join(bin, command), args, { cwd, encoding: 'utf8', ...user, env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.message}):\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

function run(command: string, args: string[], cwd: string, user: { uid?: number; gid?: number }): void {
  const result = spawnSync(join(bin, command), args, { cwd, encoding: 'utf8', ...user, env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}\n${result.stderr}`);
  }
}

export interface PostgresServerOptions {
  /** Serve TLS with this certificate and key (PEM); plain connections are still accepted. */
  tls?: { cert: string; key: string };
  /** Server settings (`-c name=value`), e.g. `shared_preload_libraries: 'pg_stat_statements'` for a bench's statement counts. */
  settings?: Record<string, string>;
}

/** Starts a PostgreSQL cluster of its own; retries on another port if the one picked was taken in between. */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  assertInstalled();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'momo-postgres-'));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'momo', '-E', 'UTF8', '--no-sync'], dir, user);
  let serverSettings = '';
  if (options.tls) {
    // PostgreSQL refuses a key that others can read, or that is not its own.
    for (const [name, pem] of [['server.crt', options.tls.cert], ['server.key', options.tls.key]] as const) {
      writeFileSync(join(dir, name), pem, { mode: 0o600 });
      if (user.uid !== undefined) chownSync(join(dir, name), user.uid, user.gid!);
    }
    serverSettings = ` -c ssl=on -c ssl_cert_file=${join(dir, 'server.crt')} -c ssl_key_file=${join(dir, 'server.key')}`;
  }
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    if (!/^[a-z_.]+$/.test(name) || !/^[\w.,/-]+$/.test(value)) throw new TypeError(`PostgreSQL setting ${name}=${value}: a name of letters, _ and ., a value without spaces or quotes.`);
    serverSettings += ` -c ${name}=${value}`;
  }

  let port = 0;
  let running = false;
  const startArgs = () => ['-D', data, '-l', log, '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${serverSettings}`, 'start'];
  const start = () => {
    run('pg_ctl', startArgs(), dir, user);
    running = true;
  };
  const halt = async (mode: 'immediate' | 'fast' = 'fast') => {
    if (!running) return;
    await runAsync('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop'], dir, user);
    running = false;
  };
  // A crashed test run must not leave a server behind (a synchronous stop: 'exit' allows no await).
  const stopOnExit = () => {
    if (running) spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], { cwd: dir, ...user });
  };
  process.once('exit', stopOnExit);

  let lastError: unknown;
  for (let attempt = 0; attempt < 3 && !running; attempt++) {
    port = await freePort();
    try {
      start();
    } catch (error) {
      lastError = error;
    }
  }
  if (!running) {
    rmSync(dir, { recursive: true, force: true });
    const output = existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : '';
    throw new Error(`PostgreSQL did not start: ${lastError instanceof Error ? lastError.message : String(lastError)}\n${output}`);
  }

  // The postmaster (first line of postmaster.pid) and its children, the backends and workers.
  let frozen: number[] = [];
  const serverProcesses = (): number[] => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent's pid (after the command name in parentheses).
          return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  };

  const urlOf = (name: string, role = 'momo') => `postgres://${role}@127.0.0.1:${port}/${name}`;
  return {
    url: urlOf('postgres'),
    port,
    urlOf,
    psql(sql, database = 'postgres') {
      return execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'momo', '-d', database, '-c', sql], { encoding: 'utf8' });
    },
    halt,
    processes: () => serverProcesses(),
    freeze() {
      frozen = serverProcesses();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    async restart() {
      if (running) return;
      await runAsync('pg_ctl', startArgs(), dir, user);
      running = true;
    },
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (frozen.length > 0) for (const pid of frozen) process.kill(pid, 'SIGCONT');
      await halt('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on `server` for one test file or case (cheaper than a cluster each). */
let databases = 0;
export function createDatabase(server: PostgresServer, prefix = 'momo_test'): string {
  const name = `${prefix}_${process.pid}_${++databases}`;
  server.psql(`CREATE DATABASE ${name}`);
  return name;
}

/** What {@link usePostgresDatabase} gives a test file: its server and its database's URL. */
export interface TestDatabase {
  readonly server: PostgresServer;
  readonly url: string;
}

/**
 * A PostgreSQL server started before the calling file's tests and stopped after them, with one
 * database of its own: call it at the file's top level. Read `server` and `url` inside the tests
 * (they exist once the file's `before` has run).
 */
export function usePostgresDatabase(): TestDatabase {
  let started: TestDatabase | undefined;
  before(async () => {
    const server = await startPostgresServer();
    started = { server, url: server.urlOf(createDatabase(server)) };
  });
  after(async () => {
    await started?.server.stop();
  });
  const current = (): TestDatabase => {
    if (!started) throw new Error('usePostgresDatabase: the server starts in the file\'s before hook: read it inside a test');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get url() {
      return current().url;
    },
  };
}
