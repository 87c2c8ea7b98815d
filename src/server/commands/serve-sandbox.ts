/**
 * `npx momo-checkout serve --sandbox`: the companion with the local sandbox of the payment service
 * mounted on its own origin, in one command, for a shop in any language. The sandbox's keys are
 * made at start and given to the companion, so no service variable is needed; its approval page
 * and logos are then on the companion's origin, which the element accepts over http on this
 * machine: the approval-page (wallet) flow works as in the Node demo. Every payer-facing link the
 * sandbox makes (logos, approval page) starts with MOMO_PUBLIC_URL, and is served under its path
 * too (`/momo/logos/...`, `/momo/authorize/...`): behind a TLS proxy that forwards only that path
 * (docs/deploy.md), the payer's browser reaches them over https, never the internal http address.
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
import { createLogger } from '../log.js';
import { storeEngineFromEnv } from '../stores/store-from-env.js';
import { isLoopbackUrl, redactedUrl } from '../model/urls.js';
import { startStandaloneCompanion, type RunningStandaloneCompanion, type StandaloneCompanionOptions } from './standalone-companion.js';

export interface StandaloneWithSandbox extends RunningStandaloneCompanion {
  /** The variables the shop's backend needs (MOMO_PUBLIC_URL, MOMO_SERVER_SECRET). */
  shopEnv: { MOMO_PUBLIC_URL: string; MOMO_SERVER_SECRET: string };
  /** Lines for the start banner. */
  banner: string[];
}

type Env = Record<string, string | undefined>;

/** Where the companion listens (`origin`, internal) and where payers reach it (`publicUrl`). */
async function addresses(env: Env): Promise<{ host: string; port: number; origin: string; publicUrl: string }> {
  const host = env.HOST?.trim() || '127.0.0.1';
  // The companion's URL is in the variables, so the port must be known before it listens.
  const port = env.PORT?.trim() && env.PORT.trim() !== '0' ? Number(env.PORT) : env.PORT?.trim() === '0' ? await freePort(host) : 3000;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CompanionConfigError(`PORT must be a port number (got ${env.PORT}).`);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { host, port, origin, publicUrl: (env.MOMO_PUBLIC_URL?.trim() || `${origin}/momo`).replace(/\/+$/, '') };
}

/** The service variables `serve` would need, made here; what the merchant set is kept. */
function sandboxEnv(env: Env, at: Awaited<ReturnType<typeof addresses>>, credentials: { apiKey: string; webhookSecret: string }): Env {
  return {
    ...env,
    PORT: String(at.port),
    HOST: at.host,
    MOMO_BASE_URL: at.origin,
    MOMO_API_KEY: credentials.apiKey,
    MOMO_WEBHOOK_SECRETS: credentials.webhookSecret,
    MOMO_PUBLIC_URL: at.publicUrl,
    // For a public URL on this machine (the approval page's link is then on loopback); behind a
    // TLS proxy with a host name the links are public https, and the variable is refused off loopback.
    MOMO_ALLOW_INSECURE_LOCAL_URLS: isLoopbackUrl(at.publicUrl) ? '1' : env.MOMO_ALLOW_INSECURE_LOCAL_URLS,
    MOMO_SERVER_SECRET: env.MOMO_SERVER_SECRET?.trim() || randomId(32),
    // The sandbox forgets everything at a restart: so does the companion with it, unless told otherwise.
    MOMO_STORE: env.MOMO_STORE?.trim() || (env.MOMO_POSTGRES_URL || env.MOMO_REDIS_URL || env.MOMO_DATA_DIR ? '' : 'memory'),
  };
}

/** The service's variables are refused: a real key is never mixed with the simulator. */
export function refuseServiceVariables(env: Env): void {
  if (env.MOMO_BASE_URL?.trim() || env.MOMO_API_KEY?.trim()) {
    throw new CompanionConfigError('serve --sandbox talks to its own simulator: unset MOMO_BASE_URL and MOMO_API_KEY (or run serve without --sandbox for the real service).');
  }
}

/** The environment `serve --sandbox` would run with (for `doctor --sandbox`), the simulator's credentials stood in for. */
export async function sandboxServeEnv(env: Env): Promise<Env> {
  refuseServiceVariables(env);
  return sandboxEnv(env, await addresses(env), { apiKey: 'sk_test_sandbox_made_at_start', webhookSecret: 'whsec_made_at_start' });
}

export async function startStandaloneWithSandbox(options: Omit<StandaloneCompanionOptions, 'mount'> & { sandboxLog?: (line: string) => void }): Promise<StandaloneWithSandbox> {
  refuseServiceVariables(options.env);
  const at = await addresses(options.env);
  const log = options.log ?? createLogger();
  const sandbox = createSandbox({
    payerUrl: at.publicUrl,
    // One process: a notification the simulator could not deliver (a private CA, a proxy that
    // refuses it) is said in the companion's own log, where the merchant looks, not only the sandbox's.
    onDelivery: (result) => {
      if (result.ok) return;
      log.error('sandbox: a service notification was NOT delivered to this companion, so its payment will not move on the page', {
        orderId: result.orderId,
        status: result.status,
        url: redactedUrl(result.url),
        error: result.error ?? `HTTP ${result.httpStatus}`,
      });
    },
    ...(options.sandboxLog ? { log: options.sandboxLog } : {}),
  });
  const env = sandboxEnv(options.env, at, sandbox);
  const sandboxHandler = getRequestListener((request) => sandbox.fetch(request));
  // The payer-facing pages under the public URL's path, as the links name them, handed to the
  // sandbox without that prefix; the service API (/v1/) stays at the root, where the companion calls it.
  const publicPath = new URL(at.publicUrl).pathname.replace(/\/+$/, '');
  const payerPrefixes = ['/authorize/', '/logos/'].map((prefix) => `${publicPath}${prefix}`);
  const underPublicPath = (path: string) => publicPath !== '' && payerPrefixes.some((prefix) => path.startsWith(prefix));
  let service: RunningStandaloneCompanion;
  try {
    service = await startStandaloneCompanion({
      ...options,
      log,
      env,
      mount: {
        handles: (path) => isSandboxPath(path) || underPublicPath(path),
        handler: (req, res) => {
          if (underPublicPath((req.url ?? '/').split('?')[0]!)) req.url = req.url!.slice(publicPath.length);
          return sandboxHandler(req, res);
        },
      },
      // In-process: the companion's calls reach the sandbox without a socket.
      overrides: { fetch: (input, init) => sandbox.fetch(new Request(input, init)), ...options.overrides },
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const shopEnv = { MOMO_PUBLIC_URL: env.MOMO_PUBLIC_URL!, MOMO_SERVER_SECRET: env.MOMO_SERVER_SECRET! };
  const ownSecret = options.env.MOMO_SERVER_SECRET?.trim();
  const banner = [
    '',
    '  momo-checkout serve --sandbox: the companion with a LOCAL SIMULATOR of the payment service.',
    '  No real money moves and no real phone is contacted.',
    // The sandbox's own transactions always go at a stop; the companion's only with the memory store.
    env.MOMO_STORE === 'memory'
      ? '  Everything is forgotten at a stop (memory store: set MOMO_DATA_DIR, MOMO_POSTGRES_URL or MOMO_REDIS_URL to keep the payments).'
      : `  Payments are kept in the companion's store (${storeName(env)}); the simulator forgets its side at a stop.`,
    '',
    `  Companion       ${env.MOMO_PUBLIC_URL}   (health: ${service.url}/healthz)`,
    `  Allowed pages   ${env.MOMO_ALLOWED_ORIGINS?.trim() || `${new URL(env.MOMO_PUBLIC_URL!).origin} only: set MOMO_ALLOWED_ORIGINS to your shop's origin`}`,
    '',
    "  Your shop's backend needs:",
    `    MOMO_PUBLIC_URL=${shopEnv.MOMO_PUBLIC_URL}`,
    // A secret made for this run is printed once, on purpose: the shop cannot know it otherwise.
    // The merchant's own is never printed: they have it, and the banner may land in a log.
    ownSecret
      ? `    MOMO_SERVER_SECRET=(yours, ending ...${ownSecret.slice(-4)})`
      : `    MOMO_SERVER_SECRET=${shopEnv.MOMO_SERVER_SECRET}   (made for this run: set MOMO_SERVER_SECRET to keep one)`,
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

/** The store the companion opened from these variables, by the one rule (storeEngineFromEnv); memory is said apart. */
function storeName(env: Env): string {
  const engine = storeEngineFromEnv(env);
  if (engine === 'postgres') return 'PostgreSQL, MOMO_POSTGRES_URL';
  if (engine === 'redis') return 'Redis, MOMO_REDIS_URL';
  return `a SQLite file in ${env.MOMO_DATA_DIR?.trim() || 'the current folder'}`;
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
