/**
 * `npx momo-checkout sandbox` (and `npm run sandbox` in this repository): serves the simulator on
 * PORT (default 4010) / HOST (default 127.0.0.1), with SANDBOX_API_KEY / SANDBOX_WEBHOOK_SECRET as
 * its credentials when set (random otherwise), and
 * prints what a merchant needs to point an integration at it. The key and secret are printed on
 * purpose here: they are the sandbox's own throwaway credentials, shown once at start-up, never
 * in the request log.
 */
import { SANDBOX_OTP } from './catalogue/catalogue.js';
import { startSandbox } from './server.js';
import { approvalPageNote, testNumberLines } from './catalogue/test-number-table.js';

const port = Number(process.env.PORT ?? 4010);
const host = process.env.HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`sandbox: PORT must be an integer between 0 and 65535 (got ${process.env.PORT})`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port,
  host,
  // Fixed credentials across restarts, so a shop's MOMO_API_KEY / MOMO_WEBHOOK_SECRETS keep working.
  ...(process.env.SANDBOX_API_KEY ? { apiKey: process.env.SANDBOX_API_KEY } : {}),
  ...(process.env.SANDBOX_WEBHOOK_SECRET ? { webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET } : {}),
  ...(process.env.PUSH_DELAY_MS ? { pushDelayMs: Number(process.env.PUSH_DELAY_MS) } : {}),
});

const lines = [
  '',
  '  momo-checkout SANDBOX: a LOCAL SIMULATOR of the payment service.',
  '  No real money moves and no real phone is contacted.',
  '',
  `  URL             ${sandbox.url}`,
  `  API key         ${sandbox.apiKey}`,
  `  Webhook secret  ${sandbox.webhookSecret}`,
  '',
  '  Point a companion at it (companionOptionsFromEnv reads these):',
  `    MOMO_BASE_URL=${sandbox.url}`,
  `    MOMO_API_KEY=${sandbox.apiKey}`,
  `    MOMO_WEBHOOK_SECRETS=${sandbox.webhookSecret}`,
  '    MOMO_PUBLIC_URL=http://127.0.0.1:<your port>/<companion path>',
  '    MOMO_ALLOW_INSECURE_LOCAL_URLS=1',
  '  On its own port, logos show as letters and the wallet approval page is refused by the element',
  '  (it opens only https pages or pages on the companion\'s origin): mount the sandbox on your',
  '  shop\'s origin for those (docs/sandbox.md in the momo-checkout package).',
  '',
  `  Control (Bearer API key): GET ${sandbox.url}/_sandbox/transactions | /deliveries | /numbers,`,
  '  POST /_sandbox/settle | /reemit | /faults | /reset',
  '  Webhooks go only to the webhookUrl of each transaction (http://127.0.0.1 accepted here, unlike the real service).',
  '',
  `  Test numbers, by what the payer sees (a payment code other than ${SANDBOX_OTP} is refused and nothing is created):`,
  ...testNumberLines(),
  `  Other numbers with a known prefix are paid. ${approvalPageNote}`,
  '',
];
console.log(lines.join('\n'));

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`sandbox: ${signal} received, stopping`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`sandbox: could not stop cleanly: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
