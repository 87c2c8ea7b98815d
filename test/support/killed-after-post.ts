/**
 * Crash tests of a post to the service (a pay-in, a pay-out): a child process whose companion
 * stops dead once its post reached the sandbox (the answer never handed back, as if the process
 * died right then), killed with a real SIGKILL. The child uses {@link fetchThatDiesAfter} and
 * prints `posted`; the test calls {@link killWhenPosted}.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

/** Runs `script` with `args` under tsx, waits for `posted`, kills it with SIGKILL; returns what it printed. */
export async function killWhenPosted(script: string, args: readonly string[]): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.once('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('posted')) resolve();
    });
    proc.once('exit', () => reject(new Error(`the child exited before posting:\n${output}`)));
  });
  proc.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  assert.equal(output.includes('answered'), false, 'killed before the answer was handed back');
  return output;
}

/** A `fetch` that posts for real, then never answers a request to a path ending in `path`, and prints `posted`. */
export function fetchThatDiesAfter(path: string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (String(input instanceof Request ? input.url : input).endsWith(path)) {
      process.stdout.write('posted\n');
      return new Promise<Response>(() => {});
    }
    return response;
  };
}
