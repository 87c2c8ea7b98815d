#!/usr/bin/env node
/**
 * `npx momo-checkout <command>`:
 * - `doctor`: checks the companion's configuration from the environment (MOMO_BASE_URL,
 *   MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL) and says what to fix. Exit code 1 when a
 *   check fails.
 * - `serve`: runs the companion as its own HTTP server for a backend in any language
 *   (docs/backends.md); stops cleanly on SIGTERM/SIGINT.
 */
import { companionOptionsFromEnv, CompanionConfigError } from './companion/options.js';
import { runSetupChecks } from './companion/setup-checks.js';
import { runServeCommand } from './serve.js';

const usage = `Usage: momo-checkout <command>
  doctor   check the configuration (MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL)
  serve    run the companion as an HTTP server (the same, plus MOMO_SERVER_SECRET, MOMO_MERCHANT_WEBHOOK_URL,
           MOMO_MERCHANT_WEBHOOK_SECRET, MOMO_STORE, PORT, HOST; see docs/backends.md)`;

async function doctor(): Promise<void> {
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
}

switch (process.argv[2]) {
  case 'doctor':
    await doctor();
    break;
  case 'serve':
    await runServeCommand(process.env);
    break;
  default:
    console.error(usage);
    process.exitCode = 2;
}
