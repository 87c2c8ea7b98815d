/**
 * Part `commands/` (docs/architecture.md): the CLI's commands: serve, payments, the store and Node
 * checks. May import the composition root (companion.ts, options) and everything below it.
 *
 * `npx momo-checkout serve [--sandbox]`: starts the standalone companion
 * (`standalone-companion.ts`), with the local sandbox on the same origin when asked
 * (`serve-sandbox.ts`, loaded only then), and stops it on SIGTERM/SIGINT.
 */
import { createLogger } from '../log.js';
import { packagedElementFileProblems } from '../setup/element-files-check.js';
import { nodeCheck } from './node-check.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion } from './standalone-companion.js';

/** The stop signals the CLI took while serve's code loaded (cli.ts). */
export interface EarlyStopSignals {
  /** The first stop signal received while the code loaded, if any. */
  readonly received: string | undefined;
  /** Removes the CLI's handlers (once serve's own are installed: no moment without one). */
  release(): void;
}

/**
 * The CLI: starts, stops on SIGTERM/SIGINT with exit code 0, exits 1 on a configuration error.
 * `early`: the signals the CLI took while this code loaded.
 */
export async function runServeCommand(env: Record<string, string | undefined>, args: readonly string[] = [], early?: EarlyStopSignals): Promise<void> {
  const log = createLogger();
  // The early handlers are released on every way out: a signal they took before a refusal below
  // changes nothing, the process ends anyway.
  const node = nodeCheck();
  if (node.status === 'error') {
    early?.release();
    log.error(`momo-checkout serve could not start: ${node.message}`);
    process.exitCode = 1;
    return;
  }
  const unknown = args.filter((arg) => arg !== '--sandbox');
  if (unknown.length > 0) {
    early?.release();
    log.error(`momo-checkout serve: unknown option ${unknown.join(' ')}: the only one is --sandbox (the local simulator of the payment service, on this origin)`);
    process.exitCode = 2;
    return;
  }
  // The stop signals are taken before anything starts (and, through `early`, while this code
  // loaded): a SIGTERM during the start (a deploy or a `systemctl restart` right after one) would
  // otherwise kill the process at once, resetting the connections it has just accepted from the
  // service manager's socket (one-shot notifications).
  let running: RunningStandaloneCompanion | undefined;
  let stopAsked: string | undefined;
  const stop = (signal: string) => {
    if (!running) {
      stopAsked = signal;
      log.info('momo-checkout serve: stopping once started', { signal });
      return;
    }
    log.info('momo-checkout serve: stopping', { signal });
    running.close().then(
      () => {
        log.info('momo-checkout serve: stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error('momo-checkout serve: could not stop cleanly', { error });
        process.exit(1);
      },
    );
  };
  const onTerm = () => stop('SIGTERM');
  const onInt = () => stop('SIGINT');
  process.once('SIGTERM', onTerm);
  process.once('SIGINT', onInt);
  if (early) {
    early.release();
    if (early.received) stop(early.received);
  }
  try {
    if (args.includes('--sandbox')) {
      // Loaded only for this flag: a production serve never reaches the simulator.
      const { startStandaloneWithSandbox } = await import('./serve-sandbox.js');
      const withSandbox = await startStandaloneWithSandbox({ env, log });
      console.log(withSandbox.banner.join('\n'));
      running = withSandbox;
    } else running = await startStandaloneCompanion({ env, log });
  } catch (error) {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
    log.error('momo-checkout serve could not start', { error });
    process.exitCode = 1;
    return;
  }
  if (stopAsked) stop(stopAsked);
  // Loud, before a payer meets it: a released script-tag file this install lacks (issue 41).
  const problems = await packagedElementFileProblems().catch((error: unknown) => [`the package's script-tag files could not be checked: ${error}`]);
  for (const problem of problems) log.error(`momo-checkout serve: ${problem}`);
}

