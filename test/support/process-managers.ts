/**
 * What starts and restarts `momo-checkout serve` in the restart tests and the restart soak, as a
 * service manager does: either on a listening socket the manager holds (systemd's socket
 * activation: Debian's `systemd-socket-activate` binds it and passes it with systemd's protocol,
 * and test/support/socket-supervisor.ts starts serve on it again and again, as `Restart=` does),
 * or with serve binding its own port (how docs/deploy.md ran it before the socket unit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

const supervisorScript = fileURLToPath(new URL('./socket-supervisor.ts', import.meta.url));

export interface ProcessManager {
  /** Starts a process (serve) with the manager's environment; resolves with its pid. */
  start(argv: string[]): Promise<number>;
  /** Resolves when the process `pid` has exited, with its exit code (null when a signal ended it). */
  exited(pid: number): Promise<number | null>;
  /** What the processes printed (their JSON log lines), for a failure's message. */
  logs(): string;
  close(): Promise<void>;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-30_000);
  } catch {
    return '';
  }
}

/**
 * A socket on 127.0.0.1:`port` held for the processes' whole life, passed to each as descriptor 3
 * named `fdName` (systemd names it after the `.socket` unit unless `FileDescriptorName=` says
 * otherwise).
 */
export async function holdSocket(port: number, env: Record<string, string>, dir: string, fdName = 'momo-checkout.socket'): Promise<ProcessManager> {
  const holder: ChildProcess = spawn('systemd-socket-activate', ['-l', `127.0.0.1:${port}`, `--fdname=${fdName}`, process.execPath, '--import', 'tsx', supervisorScript], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const log = join(dir, `serve-${port}.log`);
  let stderr = '';
  holder.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  holder.on('error', (error) => (stderr += `${error.message}: install Debian's systemd package (systemd-socket-activate)\n`));
  const messages: Array<Record<string, unknown>> = [];
  createInterface({ input: holder.stdout! }).on('line', (line) => messages.push(JSON.parse(line) as Record<string, unknown>));
  const logs = () => `${stderr}\n--- serve ---\n${tail(log)}`;
  // systemd-socket-activate starts its command when the first connection arrives (once it has
  // bound the socket: until then a connection is refused, and tried again).
  const started = await until('the socket to be bound', () => new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  }), 20_000)
    .then(() => until('the supervisor to start', () => messages.some((message) => message.ready), 20_000))
    .catch((error: Error) => error);
  if (started instanceof Error) {
    holder.kill('SIGKILL');
    throw new Error(`${started.message}\n${logs()}`);
  }
  return {
    async start(argv) {
      const before = messages.length;
      holder.stdin!.write(`${JSON.stringify({ start: { argv, env, log } })}\n`);
      await until('serve to be started', () => messages.slice(before).some((message) => message.started));
      return messages.slice(before).find((message) => message.started)!.started as number;
    },
    async exited(pid) {
      const exit = () => messages.find((message) => message.exited === pid);
      await until(`process ${pid} to exit`, () => exit() !== undefined, 30_000);
      return exit()!.code as number | null;
    },
    logs,
    async close() {
      holder.stdin!.end();
      holder.kill('SIGTERM');
    },
  };
}

/** Processes that bind `PORT` from `env` themselves: the port is closed while none runs. */
export function ownPort(env: Record<string, string>, dir: string): ProcessManager {
  const log = join(dir, `serve-${env.PORT}.log`);
  const exits = new Map<number, Promise<number | null>>();
  const children: ChildProcess[] = [];
  return {
    async start([command, ...args]) {
      const output = openSync(log, 'a');
      const child = spawn(command!, args, { env, stdio: ['ignore', output, output] });
      children.push(child);
      exits.set(child.pid!, new Promise((resolve) => child.once('exit', (code) => resolve(code))));
      return child.pid!;
    },
    exited: (pid) => exits.get(pid) ?? Promise.resolve(null),
    logs: () => tail(log),
    async close() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
