#!/usr/bin/env node
/**
 * `npx momo-checkout <command>`:
 * - `doctor`: checks the companion's configuration from the environment and says what to fix
 *   (exit code 1 when a check fails);
 * - `payments [--stale] [--state S] [--older-than MIN] [--json]`: the payments in the store, with
 *   what to tell the service's support about the stuck ones.
 */
import { companionOptionsFromEnv, CompanionConfigError } from './companion/options.js';
import { runSetupChecks } from './companion/setup-checks.js';
import { paymentsCommand, UsageError } from './commands/payments.js';
import { storeCheck } from './commands/store-check.js';

const usage = `Usage:
  momo-checkout doctor      checks MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL
  momo-checkout payments [--stale] [--state pending|unknown|...] [--older-than MINUTES] [--json]
                            lists payments in the store (MOMO_DATA_DIR or MOMO_REDIS_URL)`;

const [command, ...args] = process.argv.slice(2);
try {
  switch (command) {
    case 'doctor':
      process.exitCode = await doctor();
      break;
    case 'payments':
      process.exitCode = await paymentsCommand(args, process.env, (line) => console.log(line));
      break;
    default:
      console.error(usage);
      process.exitCode = 2;
  }
} catch (error) {
  if (error instanceof CompanionConfigError) {
    console.error(`FAIL  configuration: ${error.message}`);
    process.exitCode = 1;
  } else if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`${error.message}\n${usage}`);
    process.exitCode = 2;
  } else throw error;
}

async function doctor(): Promise<number> {
  const options = companionOptionsFromEnv(process.env);
  const checks = [...(await runSetupChecks(options)), await storeCheck(process.env)];
  const mark = { ok: 'ok   ', warning: 'WARN ', error: 'FAIL ' } as const;
  for (const check of checks) console.log(`${mark[check.status]} ${check.name}: ${check.message}`);
  return checks.some((check) => check.status === 'error') ? 1 : 0;
}
