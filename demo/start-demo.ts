/**
 * `startDemo`: the demo store in one call, for `npm start` (demo/server.ts) and the e2e tests.
 *
 * One HTTP server on one origin serves the merchant's checkout page, the browser bundle, the
 * companion at `/momo` and, without `service`, the sandbox's routes (`/v1/`, `/_sandbox/`,
 * `/authorize/`, `/logos/`). The sandbox shares the page's origin on purpose: the element only
 * navigates to an https authorisation page or one on the companion's origin, and only shows logos
 * over https or from that origin (src/element/urls.ts). A sandbox on its own http port would have
 * its wallet page refused and its logos replaced by placeholders; on the demo's origin, loopback
 * http is "the companion's origin" and the strict CSP needs no extra source.
 *
 * @example
 * const demo = await startDemo({ port: 0, sandbox: { pushDelayMs: 50 } });
 * console.log(demo.url); // http://127.0.0.1:PORT
 * await demo.close();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsole } from '../scripts/build-console.js';
import { getRequestListener } from '@hono/node-server';
import { createCompanion, createLogger, createMemoryStore, serverTimeouts, type Companion, type Logger, type RequestContext, type SetupCheck } from '../src/server/index.js';
import { SANDBOX_OTP, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
// The internal builder, not createSandbox: it also gives `shutdown()`, which stops the sandbox's
// timers and webhook attempts so that close() leaves nothing running.
import { createSandbox } from '../src/sandbox/index.js';
import { createDemoApp, type StaticAsset } from './app.js';
import { staticAsset } from './assets.js';
import { buildDemoBundle, bundleFileName, languageFileName, type DemoBundle } from './bundle.js';
import type { ServiceDescription } from './page.js';
import { recordingFetch, type UpstreamCall } from './upstream-calls.js';

/** A real payment service (what `MOMO_BASE_URL`, `MOMO_API_KEY`, ... give). */
export interface DemoServiceOptions {
  baseUrl: string;
  apiKey: string;
  webhookSecrets: string[];
  /** https URL where the service reaches this demo's companion, e.g. `https://abc.tunnel.example/momo`. */
  publicUrl: string;
  /** Extra page origins allowed besides the public URL's and the demo's own. */
  allowedOrigins?: string[];
  /**
   * A local stand-in of the service on this machine (`MOMO_ALLOW_INSECURE_LOCAL_URLS=1`): an http
   * public URL on loopback is accepted. The real service would drop every notification to it.
   */
  allowInsecureLocalUrls?: boolean;
}

export interface StartDemoOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Options of the in-process sandbox (e.g. a short `pushDelayMs` in tests). Ignored with `service`. */
  sandbox?: Omit<SandboxOptions, 'log'>;
  /** Run against this payment service instead of the sandbox. */
  service?: DemoServiceOptions | null;
  /** The demo's and the sandbox's lines. Default `console.log`. */
  log?: (line: string) => void;
  /** The companion's logger. Default: JSON lines at `info`. */
  companionLog?: Logger;
  /** A bundle built earlier (tests that start several demos build once). */
  bundle?: DemoBundle;
  /** Tests only: sees every request to this server (e.g. which companion routes a browser used). */
  onRequest?: (request: Request) => void;
  /** Tests only: may hold each webhook (given its raw body) before the companion sees it. */
  beforeWebhook?: (rawBody: string) => Promise<void>;
  /**
   * Page origins allowed besides the demo's own (and its loopback aliases), e.g. the LAN address a
   * phone opens with `HOST=0.0.0.0`. The companion allows configured origins only, never the
   * request's Host header.
   */
  allowedOrigins?: string[];
  /** Node's server timeouts; default `serverTimeouts` (a request must arrive within 15 s). */
  timeouts?: Partial<typeof serverTimeouts>;
  /**
   * Opens the operations console at `/momo/console` with this password (`MOMO_CONSOLE_PASSWORD`,
   * 16 characters or more); its script is built from `src/console/` at start, as the element's is.
   */
  consolePassword?: string;
}

export class DemoConfigError extends Error {
  override name = 'DemoConfigError';
}

export interface RunningDemo {
  /** `http://HOST:PORT` of the checkout page, no trailing slash. */
  url: string;
  /** The in-process sandbox, or null against a real service. */
  sandbox: Sandbox | null;
  companion: Companion;
  service: ServiceDescription;
  /** Every call the companion made to the sandbox, in order (not recorded against a real service). */
  upstreamCalls: UpstreamCall[];
  bundle: DemoBundle;
  /** `<url>/momo/console` when a console password was given, else null. */
  consoleUrl: string | null;
  /**
   * The companion's setup checks, started in the background once listening (not delaying it):
   * `formatSetupChecks` turns them into the start banner's lines.
   */
  setupChecks: Promise<SetupCheck[]>;
  close(): Promise<void>;
}

const mountPath = '/momo';

async function loadAssets(bundle: DemoBundle): Promise<Map<string, StaticAsset>> {
  const file = (name: string) => readFile(new URL(`./public/${name}`, import.meta.url));
  return new Map<string, StaticAsset>([
    [bundleFileName, staticAsset(bundle.code, 'text/javascript; charset=utf-8')],
    ['demo.js', staticAsset(await file('demo.js'), 'text/javascript; charset=utf-8')],
    ['demo.css', staticAsset(await file('demo.css'), 'text/css; charset=utf-8')],
    ...[...(bundle.languages ?? [])].map(([code, body]): [string, StaticAsset] => [languageFileName(code), staticAsset(body, 'text/javascript; charset=utf-8')]),
  ]);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * The origins the demo page is opened at on this machine: the URL printed, and for a loopback or
 * all-interfaces host the other loopback names (the companion no longer trusts the Host header to
 * say which page is its own).
 */
function pageOrigins(host: string, port: number, url: string): string[] {
  if (!['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(host)) return [url];
  return [url, `http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

function publicMount(publicUrl: string): { origin: string; path: string } {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new DemoConfigError(`MOMO_PUBLIC_URL ${JSON.stringify(publicUrl)} is not a URL: give the https address that reaches this demo plus a path, e.g. https://abc.tunnel.example/momo.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    throw new DemoConfigError(`MOMO_PUBLIC_URL needs a path for the companion (the page lives at /), e.g. ${url.origin}/momo.`);
  }
  return { origin: url.origin, path };
}

export async function startDemo(options: StartDemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((line: string) => console.log(line));
  // Vite's build sets process.env.NODE_ENV=production for the whole process when it is unset; the
  // companion would then read a production it was never told of (issue 41: a memory-store warning
  // on `npm start`). The builds below leave the environment as the merchant gave it.
  const nodeEnv = process.env.NODE_ENV;
  const bundle = options.bundle ?? (await buildDemoBundle());
  const assets = await loadAssets(bundle);
  const consoleAssetsDir = options.consolePassword ? await mkdtemp(join(tmpdir(), 'momo-demo-console-')) : null;
  if (consoleAssetsDir) await buildConsole(consoleAssetsDir);
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  const operationsConsole = options.consolePassword && consoleAssetsDir ? { consolePassword: options.consolePassword, consoleAssetsDir } : {};

  // The URL is known once listening (port 0), and the companion needs it: route through a late binding.
  let handle: (request: Request, context?: RequestContext) => Promise<Response> = () => Promise.resolve(new Response('Starting', { status: 503 }));
  // Timeouts: a client sending its request slowly (a webhook's body a byte at a time) is cut after
  // 15 s rather than Node's 300 s. The socket's address goes to the companion's per-address limits.
  const server = createServer(
    { ...serverTimeouts, ...options.timeouts },
    getRequestListener((request, env) => {
      options.onRequest?.(request);
      return handle(request, { clientAddress: env.incoming.socket?.remoteAddress });
    }),
  );
  const address = await listen(server, options.port ?? 8080, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  const upstreamCalls: UpstreamCall[] = [];
  let sandbox: Sandbox | null = null;
  let shutdownSandbox: () => Promise<void> = async () => {};
  let companion: Companion;
  let service: ServiceDescription;
  let publicOrigin = url;
  let mount = mountPath;
  const companionLog = options.companionLog ?? createLogger();

  try {
    if (options.service) {
      const { origin, path } = publicMount(options.service.publicUrl);
      publicOrigin = origin;
      mount = path;
      service = { kind: 'service', url: options.service.baseUrl };
      companion = createCompanion({
        baseUrl: options.service.baseUrl,
        apiKey: options.service.apiKey,
        webhookSecrets: options.service.webhookSecrets,
        publicUrl: options.service.publicUrl,
        allowedOrigins: [...new Set([origin, url, ...(options.service.allowedOrigins ?? [])])],
        ...(options.service.allowInsecureLocalUrls ? { allowInsecureLocalUrls: true } : {}),
        log: companionLog,
        ...operationsConsole,
      });
    } else {
      const built = createSandbox({ ...options.sandbox, log });
      sandbox = built;
      shutdownSandbox = built.close;
      service = { kind: 'sandbox', url };
      companion = createCompanion({
        baseUrl: url,
        apiKey: built.apiKey,
        webhookSecrets: [built.webhookSecret],
        publicUrl: `${url}${mountPath}`,
        allowedOrigins: [...new Set([...pageOrigins(host, address.port, url), ...(options.allowedOrigins ?? [])])],
        // Loopback http for the webhook URL and the wallet page: the sandbox only (§6.4 wants https).
        allowInsecureLocalUrls: true,
        log: companionLog,
        // The in-process sandbox forgets everything at a restart: so does the companion with it.
        store: createMemoryStore(),
        // In-process: the companion's calls reach the sandbox without a socket, through the counter.
        fetch: recordingFetch((request) => built.fetch(request), upstreamCalls),
        ...operationsConsole,
      });
    }
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }

  // Started by the companion in the background (its own option, on by default): the same run.
  const setupChecks = companion.ready().catch((error: unknown): SetupCheck[] => [
    { name: 'setup checks', status: 'error', message: `could not run: ${error instanceof Error ? error.message : String(error)}` },
  ]);
  handle = createDemoApp({ companion, mountPath: mount, sandbox, sandboxOtp: SANDBOX_OTP, assets, service, publicOrigin, log, beforeWebhook: options.beforeWebhook });

  let closing: Promise<void> | undefined;
  return {
    url,
    sandbox,
    companion,
    service,
    upstreamCalls,
    bundle,
    consoleUrl: consoleAssetsDir ? `${publicOrigin}${mount}/console` : null,
    setupChecks,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Status streams stay open for ever: cut them rather than wait.
        await companion.close();
        await shutdownSandbox();
        server.closeAllConnections();
        await stopped;
        if (consoleAssetsDir) await rm(consoleAssetsDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
