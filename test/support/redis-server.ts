/**
 * A real, throwaway redis-server for tests and the store benchmark: its own free port on 127.0.0.1,
 * no persistence, a temporary working folder, and stopped (never left running) by `stop()` or when
 * the test process exits. Missing redis-server is an error, never a silent skip: a test that did not
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
  stop(): Promise<void>;
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

async function startOnce(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'momo-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  // A crashed test run must not leave a server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const cli = spawn('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
      cli.once('error', () => child.kill('SIGTERM'));
      if (!(await exited(child, 3_000))) {
        child.kill('SIGKILL');
        await exited(child, 3_000);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    // Alive after the answer too: a server of someone else's on this port must not pass for ours.
    if ((await answersPing(port)) && child.exitCode === null && child.signalCode === null) return { url: `redis://127.0.0.1:${port}`, port, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s. Its output:\n${output}`);
}

/** Starts a redis-server; retries on another port if the one picked was taken in between. */
export async function startRedisServer(): Promise<RedisServer> {
  assertInstalled();
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
