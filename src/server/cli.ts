#!/usr/bin/env node
/**
 * The `momo-checkout` command:
 *
 * - `npx momo-checkout doctor`: checks the companion's configuration from the environment
 *   (MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL, ...) and says what to fix.
 *   Exit code 1 when a check fails.
 * - `npx momo-checkout sandbox`: the local simulator of the payment service, with the variables to
 *   point a companion at it (docs/sandbox.md).
 */
import { companionOptionsFromEnv, CompanionConfigError } from './companion/options.js';
import { runSetupChecks } from './companion/setup-checks.js';
import { formatSetupChecks } from './companion/setup-report.js';

const usage = `Usage:
  momo-checkout doctor    check the companion's configuration (reads MOMO_BASE_URL, MOMO_API_KEY,
                          MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL, MOMO_ALLOWED_ORIGINS,
                          MOMO_ALLOW_INSECURE_LOCAL_URLS)
  momo-checkout sandbox   run the local simulator of the payment service (PORT, default 4010; HOST)`;

const command = process.argv[2];
if (command === 'sandbox') {
  // Loaded only for this command: the doctor does not pay for the simulator's start-up.
  await import('../sandbox/cli.js');
} else if (command === 'doctor') {
  await doctor();
} else {
  console.error(command === undefined || command === 'help' || command === '--help' ? usage : `momo-checkout: unknown command ${JSON.stringify(command)}.\n${usage}`);
  process.exitCode = command === 'help' || command === '--help' ? 0 : 2;
}

async function doctor(): Promise<void> {
  let options: ReturnType<typeof companionOptionsFromEnv>;
  try {
    options = companionOptionsFromEnv(process.env);
  } catch (error) {
    if (!(error instanceof CompanionConfigError)) throw error;
    // Every malformed variable at once: fixing them one run at a time is slow.
    for (const problem of error.problems) console.error(`FAIL  ${problem.variable}: ${problem.message}`);
    if (error.problems.length === 0) console.error(`FAIL  configuration: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  if (options.allowInsecureLocalUrls) {
    console.log('Local mode (MOMO_ALLOW_INSECURE_LOCAL_URLS=1): http on this machine is accepted, for a local stand-in of the service only.');
  }
  const checks = await runSetupChecks({ ...options, allowLocalPublicUrl: options.allowInsecureLocalUrls === true });
  for (const line of formatSetupChecks(checks)) console.log(line);
  process.exitCode = checks.some((check) => check.status === 'error') ? 1 : 0;
}
