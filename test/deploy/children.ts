/**
 * The processes a deploy test starts (the sandbox, `serve`, nginx, Caddy): each one's output kept
 * with its name for a failure's message, a wait on an outcome that fails with that output, and
 * their stop, last started first.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { root } from './guide.js';

export interface Children {
  /** Spawns a child in the repository, `HOME` in `dir`, its output kept; stopped by `stopAll`. */
  spawnChild(name: string, command: string, args: string[], env?: Record<string, string>): ChildProcess;
  /** Polls until `probe` holds, or fails with the output. */
  until(what: string, probe: () => Promise<boolean>, ms?: number): Promise<void>;
  /** The end of what the children printed. */
  logs(): string;
  /** Stops every child still running, the last started first; resolves with their exit codes. */
  stopAll(): Promise<Array<number | null>>;
}

/** `routine`: lines left out of the logs (one per request would crowd out what went wrong). */
export function startChildren(dir: string, options: { routine?: RegExp; logChars?: number } = {}): Children {
  const lines: string[] = [];
  const running: ChildProcess[] = [];
  const logs = () => lines.join('').slice(-(options.logChars ?? 8000));
  const keep = (name: string) => (chunk: unknown) => {
    const text = String(chunk);
    if (!options.routine) return void lines.push(`[${name}] ${text}`);
    for (const line of text.split('\n')) if (line && !options.routine.test(line)) lines.push(`[${name}] ${line}\n`);
  };
  return {
    logs,
    spawnChild(name, command, args, env = {}) {
      const child = spawn(command, args, { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', keep(name));
      child.stderr!.on('data', keep(name));
      running.push(child);
      child.once('close', () => running.splice(running.indexOf(child), 1));
      return child;
    },
    async until(what, probe, ms = 30_000) {
      const end = Date.now() + ms;
      while (!(await probe().catch(() => false))) {
        if (Date.now() > end) assert.fail(`timed out waiting for ${what}\n--- logs ---\n${logs()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stopAll: () => Promise.all([...running].reverse().map((child) => stopChild(child))),
  };
}

/** Stops a child with `signal` (SIGKILL after 15 s) and resolves with its exit code. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
    child.kill(signal);
  });
}
