/**
 * A real, throwaway redis-server for tests and the store benchmark: its own free port on 127.0.0.1,
 * no persistence (unless asked: `persistent` keeps an append-only file fsynced at every write, and
 * `restart()` then stops and starts it on the same port with the same data), a temporary working
 * folder, and stopped (never left running) by `stop()` or when the test process exits. Missing redis-server is an error, never a silent skip: a test that did not
 * run must not look like a test that passed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Shuts the server down, waits `downMs` (default 0), and starts it again on the same port and folder (its data kept only when `persistent`). */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** `appendonly yes`, `appendfsync always`: what it held is there after `restart()`. */
  persistent?: boolean;
}

export class RedisServerMissingError extends Error {
  override name = 'RedisServerMissingError';
}

function assertInstalled(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new RedisServerMissingError(
      'redis-server is not installed (or not on PATH): install it with `apt-get install -y redis-server`. ' +
        'The Redis store tests need a real server and are never skipped.',
    );
  }
}


/** One PING over a raw socket: true when the server answers +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function startOnce(options: RedisServerOptions): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'momo-redis-'));
  const persistence = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const launch = () => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let child = launch();
  let output = '';
  const capture = () => {
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  };
  capture();
  // A crashed test run must not leave a server behind.
  const killOnExit = () => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopped = false;
  /** SHUTDOWN (the append-only file, when kept, is flushed first), else SIGTERM, else SIGKILL. */
  const shutDown = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const cli = spawn('redis-cli', ['-p', String(port), 'shutdown', options.persistent ? 'save' : 'nosave'], { stdio: 'ignore' });
      cli.once('error', () => child.kill('SIGTERM'));
      if (!(await exited(child, 3_000))) {
        child.kill('SIGKILL');
        await exited(child, 3_000);
      }
    }
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    await shutDown();
    rmSync(dir, { recursive: true, force: true });
  };
  const answering = async () => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      // Alive after the answer too: a server of someone else's on this port must not pass for ours.
      if ((await answersPing(port)) && child.exitCode === null && child.signalCode === null) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  };
  const restart = async (downMs = 0) => {
    await shutDown();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    child = launch();
    capture();
    if (!(await answering())) throw new Error(`redis-server on port ${port} did not come back within 10 s. Its output:\n${output}`);
  };

  if (await answering()) return { url: `redis://127.0.0.1:${port}`, port, restart, stop };
  await stop();
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s. Its output:\n${output}`);
}

/** Starts a redis-server; retries on another port if the one picked was taken in between. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  assertInstalled();
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
