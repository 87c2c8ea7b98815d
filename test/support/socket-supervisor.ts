/**
 * The service manager's part of socket activation, for tests: started by Debian's
 * `systemd-socket-activate`, which binds the listening socket and hands it over as descriptor 3
 * with `LISTEN_FDS`/`LISTEN_FDNAMES` (as systemd does for a `.socket` unit), this process starts
 * `momo-checkout serve` again and again on that one socket, as systemd's `Restart=` does:
 * systemd-socket-activate itself runs its command once.
 *
 * Each child gets descriptor 3 and the protocol's variables, `LISTEN_PID` being the child's own pid
 * (set by `exec` from a shell, which keeps the pid, as systemd sets it between fork and exec). This
 * process never listens on the socket: connections wait in the kernel's queue until a child
 * accepts them.
 *
 * Commands, one JSON object per line on stdin: `{"start": {"argv": [...], "env": {...}, "log": "<file>"}}`.
 * Answers on stdout, one JSON object per line: `{"ready": true}` at start, `{"started": <pid>}`,
 * `{"exited": <pid>, "code": <n|null>, "signal": <name|null>}`.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';

const inherited = { LISTEN_FDS: process.env.LISTEN_FDS, LISTEN_FDNAMES: process.env.LISTEN_FDNAMES };
if (inherited.LISTEN_FDS !== '1') throw new Error(`socket-supervisor: expected one socket from systemd-socket-activate, LISTEN_FDS=${inherited.LISTEN_FDS}`);

const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

interface Start {
  argv: string[];
  env: Record<string, string>;
  log: string;
}

function start({ argv, env, log }: Start): void {
  const output = openSync(log, 'a');
  const child = spawn('/bin/sh', ['-c', 'LISTEN_PID=$$ exec "$@"', 'sh', ...argv], {
    env: { ...env, LISTEN_FDS: '1', ...(inherited.LISTEN_FDNAMES ? { LISTEN_FDNAMES: inherited.LISTEN_FDNAMES } : {}) },
    stdio: ['ignore', output, output, 3],
  });
  say({ started: child.pid });
  child.on('exit', (code, signal) => say({ exited: child.pid, code, signal }));
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { start?: Start };
  if (command.start) start(command.start);
});
process.stdin.on('end', () => process.exit(0));
say({ ready: true });
