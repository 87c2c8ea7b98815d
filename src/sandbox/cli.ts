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

// Behind a TLS proxy (docs/deploy.md section 7): the https address that forwards the sandbox's
// /authorize/ and /logos/ paths, so the payer's approval page and logos are links a browser opens.
const publicUrl = process.env.SANDBOX_PUBLIC_URL?.trim();
if (publicUrl !== undefined && publicUrl !== '' && !/^https?:\/\/[^/]+/.test(publicUrl)) {
  console.error(`sandbox: SANDBOX_PUBLIC_URL must be an http(s) URL such as https://staging.shop.example/sandbox (got ${publicUrl})`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port,
  host,
  // Fixed credentials across restarts, so a shop's MOMO_API_KEY / MOMO_WEBHOOK_SECRETS keep working.
  ...(process.env.SANDBOX_API_KEY ? { apiKey: process.env.SANDBOX_API_KEY } : {}),
  ...(process.env.SANDBOX_WEBHOOK_SECRET ? { webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET } : {}),
  ...(process.env.PUSH_DELAY_MS ? { pushDelayMs: Number(process.env.PUSH_DELAY_MS) } : {}),
  ...(publicUrl ? { payerUrl: publicUrl } : {}),
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
  ...(publicUrl
    ? [`  Approval page and logos at ${publicUrl.replace(/\/+$/, '')}/authorize/... and /logos/... (SANDBOX_PUBLIC_URL): the proxy there must forward them here.`]
    : [
        '  On its own port, logos show as letters and the wallet approval page is refused (only https pages',
        '  on a public host, or on this machine with MOMO_ALLOW_INSECURE_LOCAL_URLS=1, are sent to a payer):',
        '  behind a TLS proxy set SANDBOX_PUBLIC_URL (docs/deploy.md section 7), or mount the sandbox on',
        '  your shop\'s origin (docs/sandbox.md in the momo-checkout package).',
      ]),
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
