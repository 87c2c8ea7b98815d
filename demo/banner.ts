/**
 * What `npm start` prints once the demo listens: where things are, the setup checks' results
 * (formatSetupChecks, the doctor's format) and, in local mode, a warning no one can miss.
 */
import { formatSetupChecks, type SetupCheck } from '../src/server/index.js';
import type { RunningDemo } from './start-demo.js';

export interface BannerInput {
  demo: Pick<RunningDemo, 'url' | 'service' | 'bundle'> & Partial<Pick<RunningDemo, 'consoleUrl'>>;
  checks: readonly SetupCheck[];
  /** For the real-service mode: the public URL (`MOMO_PUBLIC_URL`). */
  publicUrl?: string;
  /** `MOMO_ALLOW_INSECURE_LOCAL_URLS=1` was set. */
  insecureLocal?: boolean;
}

export function startBanner({ demo, checks, publicUrl, insecureLocal }: BannerInput): string[] {
  const checkLines = ['  Setup checks (the same as npx momo-checkout doctor):', ...formatSetupChecks(checks, { indent: '    ' })];
  const consoleLine = demo.consoleUrl ? [`  Console         ${demo.consoleUrl}   (sign in with MOMO_CONSOLE_PASSWORD)`] : [];
  if (demo.service.kind === 'sandbox') {
    return [
      '',
      '  momo-checkout demo store, against the LOCAL SANDBOX (no real money, no real phone).',
      '',
      `  Shop checkout   ${demo.url}/`,
      `  Other orders    ${demo.url}/?amount=12500&currency=XOF   (each opens a new order; a reload keeps it)`,
      `  Companion       ${demo.url}/momo`,
      ...consoleLine,
      `  Sandbox         ${demo.url}/v1/... (in-process; its test numbers are listed on the page)`,
      `  Browser bundle  ${(demo.bundle.gzipBytes / 1024).toFixed(1)} KB gzip, built in ${demo.bundle.buildMs} ms`,
      '',
      ...checkLines,
      '',
      '  Ctrl-C stops everything.',
      '',
    ];
  }
  const base = (publicUrl ?? '').replace(/\/+$/, '');
  return [
    '',
    insecureLocal
      ? `  momo-checkout demo store, against a LOCAL STAND-IN of the payment service at ${demo.service.url}.`
      : '  momo-checkout demo store, against the PAYMENT SERVICE: real prompts, real money.',
    ...(insecureLocal
      ? [
          '',
          '  !!! LOCAL MODE (MOMO_ALLOW_INSECURE_LOCAL_URLS=1): http URLs on this machine are accepted.',
          '  !!! The real payment service drops every notification sent to such a URL: it posts only',
          '  !!! to https URLs on public addresses. Use this against a local stand-in only.',
        ]
      : []),
    '',
    `  Service         ${demo.service.url}`,
    `  Shop checkout   ${demo.url}/  (and through ${base.replace(/\/[^/]*$/, '/')})`,
    `  Webhooks at     ${base}/webhook`,
    ...consoleLine,
    '',
    ...checkLines,
    '',
    '  Ctrl-C stops everything.',
    '',
  ];
}
