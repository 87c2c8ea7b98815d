#!/usr/bin/env node
/**
 * `npx momo-checkout doctor`: checks the companion's configuration from the environment
 * (MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL) and says what to fix.
 * Exit code 1 when a check fails.
 */
import { companionOptionsFromEnv, CompanionConfigError } from './companion/options.js';
import { runSetupChecks } from './companion/setup-checks.js';

const command = process.argv[2];
if (command !== 'doctor') {
  console.error('Usage: momo-checkout doctor   (reads MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL)');
  process.exit(2);
}
try {
  const options = companionOptionsFromEnv(process.env);
  const checks = await runSetupChecks(options);
  const mark = { ok: 'ok   ', warning: 'WARN ', error: 'FAIL ' } as const;
  for (const check of checks) console.log(`${mark[check.status]} ${check.name}: ${check.message}`);
  process.exitCode = checks.some((check) => check.status === 'error') ? 1 : 0;
} catch (error) {
  if (!(error instanceof CompanionConfigError)) throw error;
  console.error(`FAIL  configuration: ${error.message}`);
  process.exitCode = 1;
}
