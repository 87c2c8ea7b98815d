/**
 * The companion's readiness: the setup checks run once and remembered, their failures logged
 * loudly with the fix. A failed round is run again when asked after `recheckMs` (the service was
 * down at start, a secret was added), so readiness recovers without a restart; a passed round is kept.
 */
import type { Logger } from '../log.js';
import { runSetupChecks, type SetupCheck, type SetupCheckOptions } from './setup-checks.js';

export function createSetupReadiness(options: { checks: SetupCheckOptions; log: Logger; now: () => number; recheckMs: number }): () => Promise<SetupCheck[]> {
  const { log, now } = options;
  let checks: Promise<SetupCheck[]> | undefined;
  let recheckAfter = Number.POSITIVE_INFINITY;
  return () => {
    if (checks && now() >= recheckAfter) checks = undefined;
    return (checks ??= runSetupChecks(options.checks).then((results) => {
      for (const check of results) {
        if (check.status === 'error') log.error(`momo-checkout setup: ${check.name}: ${check.message}`);
        else if (check.status === 'warning') log.warn(`momo-checkout setup: ${check.name}: ${check.message}`);
      }
      recheckAfter = results.some((check) => check.status === 'error') ? now() + options.recheckMs : Number.POSITIVE_INFINITY;
      return results;
    }));
  };
}
