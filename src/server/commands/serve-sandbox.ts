/**
 * `npx momo-checkout serve --sandbox`: the companion with the local sandbox of the payment service
 * mounted on its own origin, in one command, for a shop in any language. The sandbox's keys are
 * made at start and given to the companion, so no service variable is needed; its approval page
 * and logos are then on the companion's origin, which the element accepts over http on this
 * machine: the approval-page (wallet) flow works as in the Node demo.
 *
 * Loaded by the CLI only for this flag: `serve` without it never reaches the simulator.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, isSandboxPath } from '../../sandbox/index.js';
import { approvalPageNote, testNumberLines } from '../../sandbox/catalogue/test-number-table.js';
import { getRequestListener } from '@hono/node-server';
import { randomId } from '../tokens.js';
import { CompanionConfigError } from '../config-error.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion, type StandaloneCompanionOptions } from './standalone-companion.js';

export interface StandaloneWithSandbox extends RunningStandaloneCompanion {
  /** The variables the shop's backend needs (MOMO_PUBLIC_URL, MOMO_SERVER_SECRET). */
  shopEnv: { MOMO_PUBLIC_URL: string; MOMO_SERVER_SECRET: string };
  /** Lines for the start banner. */
  banner: string[];
}

type Env = Record<string, string | undefined>;

/** The service variables `serve` would need, made here; what the merchant set is kept. */
async function sandboxEnv(env: Env, credentials: { apiKey: string; webhookSecret: string }): Promise<Env> {
  const host = env.HOST?.trim() || '127.0.0.1';
  // The companion's URL is in the variables, so the port must be known before it listens.
  const port = env.PORT?.trim() && env.PORT.trim() !== '0' ? Number(env.PORT) : env.PORT?.trim() === '0' ? await freePort(host) : 3000;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CompanionConfigError(`PORT must be a port number (got ${env.PORT}).`);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    ...env,
    PORT: String(port),
    HOST: host,
    MOMO_BASE_URL: origin,
    MOMO_API_KEY: credentials.apiKey,
    MOMO_WEBHOOK_SECRETS: credentials.webhookSecret,
    MOMO_PUBLIC_URL: env.MOMO_PUBLIC_URL?.trim() || `${origin}/momo`,
    MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    MOMO_SERVER_SECRET: env.MOMO_SERVER_SECRET?.trim() || randomId(32),
    // The sandbox forgets everything at a restart: so does the companion with it, unless told otherwise.
    MOMO_STORE: env.MOMO_STORE?.trim() || (env.MOMO_POSTGRES_URL || env.MOMO_REDIS_URL || env.MOMO_DATA_DIR ? '' : 'memory'),
  };
}

export async function startStandaloneWithSandbox(options: Omit<StandaloneCompanionOptions, 'mount'> & { sandboxLog?: (line: string) => void }): Promise<StandaloneWithSandbox> {
  if (options.env.MOMO_BASE_URL?.trim() || options.env.MOMO_API_KEY?.trim()) {
    throw new CompanionConfigError('serve --sandbox talks to its own simulator: unset MOMO_BASE_URL and MOMO_API_KEY (or run serve without --sandbox for the real service).');
  }
  const sandbox = createSandbox({ ...(options.sandboxLog ? { log: options.sandboxLog } : {}) });
  const env = await sandboxEnv(options.env, sandbox);
  const sandboxHandler = getRequestListener((request) => sandbox.fetch(request));
  let service: RunningStandaloneCompanion;
  try {
    service = await startStandaloneCompanion({
      ...options,
      env,
      mount: { handles: isSandboxPath, handler: sandboxHandler },
      // In-process: the companion's calls reach the sandbox without a socket.
      overrides: { fetch: (input, init) => sandbox.fetch(new Request(input, init)), ...options.overrides },
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const shopEnv = { MOMO_PUBLIC_URL: env.MOMO_PUBLIC_URL!, MOMO_SERVER_SECRET: env.MOMO_SERVER_SECRET! };
  const banner = [
    '',
    '  momo-checkout serve --sandbox: the companion with a LOCAL SIMULATOR of the payment service.',
    '  No real money moves and no real phone is contacted; everything is forgotten at a stop.',
    '',
    `  Companion       ${env.MOMO_PUBLIC_URL}   (health: ${service.url}/healthz)`,
    `  Allowed pages   ${env.MOMO_ALLOWED_ORIGINS?.trim() || `${new URL(env.MOMO_PUBLIC_URL!).origin} only: set MOMO_ALLOWED_ORIGINS to your shop's origin`}`,
    '',
    "  Your shop's backend needs:",
    `    MOMO_PUBLIC_URL=${shopEnv.MOMO_PUBLIC_URL}`,
    // Printed on purpose: a throwaway secret of this local run, shown once at start, never logged.
    `    MOMO_SERVER_SECRET=${shopEnv.MOMO_SERVER_SECRET}${options.env.MOMO_SERVER_SECRET?.trim() ? '   (yours)' : '   (made for this run: set MOMO_SERVER_SECRET to keep one)'}`,
    '',
    '  Test numbers, by what the payer sees:',
    ...testNumberLines(),
    `  ${approvalPageNote}`,
    '',
  ];
  return {
    ...service,
    shopEnv,
    banner,
    close: async () => {
      await service.close();
      await sandbox.close();
    },
  };
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
