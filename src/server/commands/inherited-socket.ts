/**
 * A listening socket handed over by the service manager (systemd's socket activation,
 * sd_listen_fds(3)): the manager binds `HOST:PORT` once and keeps the socket open while `serve`
 * restarts, is upgraded or crashes, so the payment service's one-shot notifications wait in the
 * kernel's queue for the next process instead of being refused (issue 52; docs/deploy.md).
 *
 * The protocol is three variables and descriptors from 3 on: `LISTEN_FDS` (how many),
 * `LISTEN_PID` (the process they are meant for: a child that inherited the variables must not
 * take them), `LISTEN_FDNAMES` (`FileDescriptorName=`, colon-separated). Written here rather than
 * taken from npm: the packages for it wrap these ten lines and none checks `LISTEN_PID`.
 */
import { CompanionConfigError } from '../config-error.js';

/** The first descriptor the manager passes (SD_LISTEN_FDS_START). */
const firstDescriptor = 3;

export interface InheritedSocket {
  fd: number;
  /** `FileDescriptorName=` of the socket unit (by default the unit's name), when the manager gave one. */
  name?: string;
}

type Env = Record<string, string | undefined>;

/**
 * The socket passed to this process, or undefined when none was (then `serve` binds `HOST:PORT`).
 * Throws a CompanionConfigError, saying what to change, when the variables are meant for another
 * process or name more than one socket.
 */
export function inheritedSocketFrom(env: Env, pid: number = process.pid): InheritedSocket | undefined {
  const count = env.LISTEN_FDS?.trim();
  if (!count) return undefined;
  const owner = env.LISTEN_PID?.trim();
  if (owner && owner !== String(pid)) {
    throw new CompanionConfigError(
      `LISTEN_FDS is set for process ${owner}, not this one (${pid}): the service manager's socket went to a process that started momo-checkout serve as a child. ` +
        'Start serve itself from the unit (ExecStart=/srv/shop/node_modules/.bin/momo-checkout serve, or `exec` it from a script), not through npx or a shell that forks.',
    );
  }
  if (!/^\d+$/.test(count) || Number(count) === 0) {
    throw new CompanionConfigError(`LISTEN_FDS is ${JSON.stringify(env.LISTEN_FDS)}: the service manager passes a number of sockets; remove the variable to listen on HOST:PORT.`);
  }
  if (Number(count) > 1) {
    throw new CompanionConfigError(
      `The service manager passed ${count} sockets (LISTEN_FDNAMES=${env.LISTEN_FDNAMES ?? ''}): serve listens on one. Keep a single ListenStream= in momo-checkout.socket.`,
    );
  }
  const name = env.LISTEN_FDNAMES?.split(':')[0]?.trim();
  return { fd: firstDescriptor, ...(name ? { name } : {}) };
}

/**
 * Removes the variables once the socket is taken (sd_listen_fds' `unset_environment`), so that no
 * program this process starts believes the socket is its own.
 */
export function forgetInheritedSocket(env: Env): void {
  delete env.LISTEN_FDS;
  delete env.LISTEN_PID;
  delete env.LISTEN_FDNAMES;
}
