#!/usr/bin/env node
/**
 * The `momo-checkout` command:
 *
 * - `npx momo-checkout doctor [--sandbox]`: checks the companion's configuration from the
 *   environment (MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL, ...) and its
 *   store, and says what to fix (commands/doctor.ts). Exit code 1 when a check fails.
 * - `npx momo-checkout payments [--stale] [--state S] [--older-than MIN] [--json]`: the payments in
 *   the store (or, with MOMO_SERVER_URL or --url, the running companion's), with what to tell the
 *   service's support about the stuck ones; with `--csv` or `--xlsx` `[--from] [--to] [--output FILE]`, the accountant's export.
 * - `npx momo-checkout refund ORDER AMOUNT --id REFUND_ID`: refunds a completed payment through the
 *   running companion's server API (commands/refund.ts).
 * - Every command that asks the running companion reaches its server API the same way:
 *   MOMO_SERVER_URL or --url (the public URL followed by /server), MOMO_SERVER_SECRET
 *   (commands/server-api-call.ts).
 * - `npx momo-checkout serve`: the companion as its own HTTP server, for a backend in any language
 *   (docs/backends.md); stops cleanly on SIGTERM/SIGINT.
 * - `npx momo-checkout redeliver ORDER [--all]`, `npx momo-checkout ping`: send an order's
 *   notifications again now, or a signed test notification, through the running companion.
 * - `npx momo-checkout sandbox`: the local simulator of the payment service, with the variables to
 *   point a companion at it (docs/sandbox.md).
 */
import { CompanionConfigError } from './config-error.js';
import { UsageError } from './commands/usage-error.js';
import type { EarlyStopSignals } from './commands/serve.js';

const usage = `Usage:
  momo-checkout doctor [--sandbox] [--proxy]
                          check the companion's configuration and store (reads MOMO_BASE_URL,
                          MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL, MOMO_ALLOWED_ORIGINS,
                          MOMO_ALLOW_INSECURE_LOCAL_URLS, MOMO_DATA_DIR, MOMO_POSTGRES_URL, MOMO_REDIS_URL, and serve's
                          MOMO_SERVER_SECRET, MOMO_MERCHANT_WEBHOOK_URL, MOMO_MERCHANT_WEBHOOK_SECRET,
                          MOMO_MERCHANT_EVENTS); MOMO_SERVER_URL: asks the running server API;
                          --sandbox: as serve --sandbox reads them (no service variable); --proxy: an https
                          request to MOMO_PUBLIC_URL, trusting NODE_EXTRA_CA_CERTS as the staging sandbox would
  momo-checkout serve     run the companion as an HTTP server (the same variables, plus MOMO_SERVER_SECRET,
                          MOMO_MERCHANT_WEBHOOK_URL, MOMO_MERCHANT_WEBHOOK_SECRET, MOMO_MERCHANT_EVENTS
                          (default payment.updated; add refund.updated, test.ping), PORT, HOST; docs/backends.md)
  momo-checkout serve --sandbox
                          the same with the local simulator of the payment service on its origin: no
                          service variable needed (docs/sandbox.md); prints the test numbers
  momo-checkout payments [--stale] [--state pending|unknown|...] [--older-than MINUTES] [--json] [--url SERVER_API_URL]
                          list payments in the store, with what to do for the stuck ones (--stale: open
                          with no news for 15 minutes or more, or --older-than MINUTES; or a refused notification);
                          with MOMO_SERVER_URL or --url, asks the running companion instead of opening the store
  momo-checkout payments --csv|--xlsx [--from 2026-11-01] [--to 2026-12-01] [--output FILE] [--url SERVER_API_URL]
                          the accountant's export: every payment created in [from, to) (UTC; default this
                          month so far) as CSV, or as an xlsx workbook with its totals, to FILE or standard output
  momo-checkout link create --currency XOF --description TEXT (--amount A | --min A --max B)
                          [--reusable] [--max-payments N] [--expires ISO] [--key K] [--json] [--url SERVER_API_URL]
                          create a payment link through the running companion; prints its URL and a QR code
  momo-checkout refund ORDER AMOUNT --id REFUND_ID [--reason TEXT] [--json] [--url SERVER_API_URL]
                          refund a completed payment to the number that paid, through the running
                          companion (refunds on: MOMO_REFUNDS=on)
  momo-checkout sandbox   run the local simulator of the payment service (PORT, default 4010; HOST;
                          NODE_EXTRA_CA_CERTS for a staging proxy's private CA: docs/deploy.md section 7)
  momo-checkout redeliver ORDER_ID [--all] [--url SERVER_API_URL] [--json]
                          send the order's notifications your endpoint did not acknowledge again, now
                          (--all: every one); asks the running companion
  momo-checkout ping [--url SERVER_API_URL] [--json]
                          send one signed test.ping to MOMO_MERCHANT_WEBHOOK_URL and show its answer
                          (never retried; only if MOMO_MERCHANT_EVENTS lists test.ping)

  refund, redeliver, ping and payments --url reach the running companion's server API at
  MOMO_SERVER_URL or --url: its public URL followed by /server (on its host, e.g.
  http://127.0.0.1:3000/momo/server; MOMO_PUBLIC_URL + /server when neither is set), with
  MOMO_SERVER_SECRET.`;

/**
 * The stop signals (SIGTERM, SIGINT) taken before `serve`'s code loads. Loading it takes a second
 * or more on a busy machine (the companion, its stores, their drivers), and until a handler exists
 * a signal's default action ends the process at once: a `systemctl restart` right after a start
 * would kill it mid-load instead of letting it start and stop. Here, in the CLI, because serve.ts
 * is the code being loaded; serve takes the signals over once loaded.
 */
function takeStopSignalsEarly(): EarlyStopSignals {
  let received: string | undefined;
  const onTerm = () => (received ??= 'SIGTERM');
  const onInt = () => (received ??= 'SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return {
    get received() {
      return received;
    },
    release() {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
    },
  };
}

const [command, ...args] = process.argv.slice(2);
try {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  switch (command) {
    case 'sandbox':
      // Loaded only for this command: the others do not pay for the simulator's start-up.
      await import('../sandbox/cli.js');
      break;
    // Each command loads only its own code: redeliver, ping and refund are HTTP calls to the running
    // companion and start in a quarter of the time when they do not load the companion and its stores.
    case 'doctor': {
      const { doctorCommand } = await import('./commands/doctor.js');
      process.exitCode = await doctorCommand(process.env, args, (line) => console.log(line), (line) => console.error(line));
      break;
    }
    case 'serve': {
      // Before the import, which takes a second or more under load: a SIGTERM then stops serve once started.
      const early = takeStopSignalsEarly();
      const { runServeCommand } = await import('./commands/serve.js');
      await runServeCommand(process.env, args, early);
      break;
    }
    case 'payments': {
      const { paymentsCommand } = await import('./commands/payments.js');
      process.exitCode = await paymentsCommand(args, process.env, (line) => console.log(line));
      break;
    }
    case 'redeliver': {
      const { redeliverCommand } = await import('./commands/endpoint-commands.js');
      process.exitCode = await redeliverCommand(args, process.env, (line) => console.log(line));
      break;
    }
    case 'ping': {
      const { pingCommand } = await import('./commands/endpoint-commands.js');
      process.exitCode = await pingCommand(args, process.env, (line) => console.log(line));
      break;
    }
    case 'link': {
      const { linkCommand } = await import('./commands/link.js');
      process.exitCode = await linkCommand(args, process.env, (line) => console.log(line));
      break;
    }
    case 'refund': {
      const { refundCommand } = await import('./commands/refund.js');
      process.exitCode = await refundCommand(args, process.env, (line) => console.log(line));
      break;
    }
    case undefined:
    case 'help':
    case '--help':
      console.error(usage);
      process.exitCode = command === undefined ? 2 : 0;
      break;
    default:
      console.error(`momo-checkout: unknown command ${JSON.stringify(command)}.\n${usage}`);
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
