/**
 * The standalone companion (`npx momo-checkout serve`): the companion as its own HTTP server, for a merchant backend in any
 * language (PHP, Python, Ruby...). Configured from `MOMO_*` variables, on the durable store, with
 * `/healthz` and `/readyz`, JSON logs, and a graceful stop on SIGTERM/SIGINT.
 *
 * Put a TLS-terminating proxy in front that forwards paths unchanged: the service only notifies
 * https URLs (its delivery rules refuse anything else), and the routes live under the path of
 * `MOMO_PUBLIC_URL`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { toNodeHandler } from '../../adapters/node-http.js';
import { companionRoutes } from '../../contract/companion.js';
import { createCompanion, type Companion } from '../companion.js';
import { CompanionConfigError } from '../config-error.js';
import { type CompanionOptions } from '../options.js';
import { serverApiPrefix } from '../server-api/server-api-schemas.js';
import { standaloneOptionsFromEnv } from './standalone-options.js';
import { forgetInheritedSocket, inheritedSocketFrom } from './inherited-socket.js';
import type { SetupCheck } from '../setup/setup-checks.js';
import { openStoreFromEnv, type OpenedStore } from '../stores/store-from-env.js';
import { redactedUrl } from '../model/urls.js';
import { createLogger, type Logger } from '../log.js';

export interface StandaloneCompanionOptions {
  env: Record<string, string | undefined>;
  /** Default: `openStoreFromEnv(env)`. */
  store?: OpenedStore;
  /** Default: JSON lines, info and debug on stdout, warnings and errors on stderr. */
  log?: Logger;
  /** Longest time to receive a whole request (headers and body). Default 15 s (Node's own is 300 s). */
  requestTimeoutMs?: number;
  /** Longest time to receive the headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** How long a stop waits for requests under way before cutting them. Default 10 s. */
  drainMs?: number;
  /** Tests: options laid over those read from the environment (retry delays, clocks). */
  overrides?: Partial<CompanionOptions>;
  /** Another handler on the same origin, for the paths it claims (`serve --sandbox`: the sandbox). */
  mount?: { handles(path: string): boolean; handler: (req: IncomingMessage, res: ServerResponse) => unknown };
}

export interface RunningStandaloneCompanion {
  /** `http://HOST:PORT`, where the server listens (not the public URL). */
  url: string;
  companion: Companion;
  server: Server;
  /** Stops accepting, cuts the status streams, lets work under way finish, closes the store. */
  close(): Promise<void>;
}

export async function startStandaloneCompanion(options: StandaloneCompanionOptions): Promise<RunningStandaloneCompanion> {
  const log = options.log ?? createLogger();
  const config = standaloneOptionsFromEnv(options.env);
  const opened = options.store ?? (await openStoreFromEnv(options.env));
  const companion = createCompanion({
    ...config.options,
    store: opened.store,
    ...(opened.hub ? { hub: opened.hub } : {}),
    log,
    // Run below, once listening, so that their findings are printed at start.
    setupChecksAtStart: false,
    ...options.overrides,
  });

  let checks: SetupCheck[] | undefined;
  let stopping = false;
  let draining = false;
  const streams = new Set<ServerResponse>();
  const busy = new Set<ServerResponse>();
  const eventsPath = `${new URL(config.options.publicUrl).pathname.replace(/\/+$/, '')}${companionRoutes.events}`;
  const companionHandler = toNodeHandler(companion);

  const readiness = async (): Promise<{ ready: boolean; reason?: string }> => {
    if (stopping) return { ready: false, reason: 'shutting down' };
    try {
      await withTimeout(opened.store.ping(), 2_000, 'no answer within 2 s');
    } catch (error) {
      return { ready: false, reason: `store unreachable (${opened.describe}): ${error instanceof Error ? error.message : String(error)}` };
    }
    try {
      // Reads can work while every write fails (a full disk): /readyz must not say ready then.
      await withTimeout(opened.store.probeWrite?.() ?? Promise.resolve(), 2_000, 'no answer within 2 s');
    } catch (error) {
      return { ready: false, reason: `store cannot be written (${opened.describe}): ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!checks) return { ready: false, reason: 'setup checks are still running' };
    // A failed round is run again by the companion (at most every 30 s): readiness recovers
    // once the service or the configuration is fixed, without a restart.
    if (checks.some((check) => check.status === 'error')) checks = await companion.ready().catch(() => checks!);
    const failed = checks.filter((check) => check.status === 'error');
    if (failed.length > 0) return { ready: false, reason: `setup checks failed: ${failed.map((check) => `${check.name}: ${check.message}`).join(' ')}` };
    return { ready: true };
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return json(res, 200, { ok: true });
    if (path === '/readyz') {
      void readiness().then((state) => json(res, state.ready ? 200 : 503, state));
      return;
    }
    if (options.mount?.handles(path ?? '/')) return void options.mount.handler(req, res);
    // Status streams stay open for minutes: tracked apart, cut at once on a stop (the page
    // reconnects with Last-Event-ID and misses nothing); other requests are waited for.
    const tracked = path === eventsPath ? streams : busy;
    // Stopping: answer, then end the connection, so the client opens its next one to the process
    // that takes over rather than sending it here.
    if (draining) res.setHeader('connection', 'close');
    tracked.add(res);
    res.once('close', () => tracked.delete(res));
    void companionHandler(req, res);
  };

  const server = createServer(
    {
      requestTimeout: options.requestTimeoutMs ?? 15_000,
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      // Node checks the two timeouts above on this interval (default 30 s): a slow body is cut on time.
      connectionsCheckingInterval: 1_000,
    },
    handle,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // The service manager's socket when it gave one (systemd socket activation): it stays open
  // across this process's restarts, so nothing is refused while none runs.
  const inherited = inheritedSocketFrom(options.env);
  if (inherited) forgetInheritedSocket(options.env);
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  let address: AddressInfo;
  try {
    address = await new Promise<AddressInfo>((resolve, reject) => {
      server.once('error', reject);
      const listening = () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      };
      if (inherited) server.listen({ fd: inherited.fd }, listening);
      else server.listen(config.port, config.host, listening);
    });
  } catch (error) {
    await companion.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new CompanionConfigError(`${config.host}:${config.port} is already in use: set PORT (or HOST) to a free one.`);
    if (inherited) {
      throw new CompanionConfigError(
        `The service manager's socket (descriptor ${inherited.fd}${inherited.name ? `, ${inherited.name}` : ''}) cannot be listened on (${code ?? String(error)}): give serve one ListenStream= socket (TCP), or remove LISTEN_FDS to listen on HOST:PORT.`,
      );
    }
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${inherited ? host : config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;

  const base = config.options.publicUrl.replace(/\/+$/, '');
  log.info('momo-checkout serve: listening', {
    listening: url,
    ...(inherited ? { socket: `from the service manager (descriptor ${inherited.fd}${inherited.name ? `, ${inherited.name}` : ''}): HOST and PORT are not used` } : {}),
    pageRoutes: `${base}${companionRoutes.checkout}`,
    serverApi: `${base}${serverApiPrefix}`,
    openApi: `${base}${serverApiPrefix}/openapi.json`,
    serviceWebhook: `${base}${companionRoutes.webhook}`,
    console: `${base}/console`,
    merchantWebhook: config.options.merchantWebhookUrl ? redactedUrl(config.options.merchantWebhookUrl) : 'not set: read payments with GET /server/payments/{orderId}',
    ...(config.options.merchantEvents ? { merchantEvents: config.options.merchantEvents.join(',') } : {}),
    health: `${url}/healthz`,
    readiness: `${url}/readyz`,
    store: opened.describe,
  });
  if (!config.options.merchantWebhookUrl) {
    log.warn('MOMO_MERCHANT_WEBHOOK_URL is not set: payment transitions are not pushed to your backend; set it (and MOMO_MERCHANT_WEBHOOK_SECRET) or poll the server API');
  }
  void companion.ready().then(
    (results) => {
      checks = results;
      // Failures and warnings are logged by the companion itself, with their fix.
      for (const check of results) if (check.status === 'ok') log.info(`momo-checkout setup: ${check.name}: ${check.message}`);
      const count = (status: SetupCheck['status']) => results.filter((check) => check.status === status).length;
      log.info('momo-checkout setup checks done', { ok: count('ok'), warnings: count('warning'), errors: count('error') });
    },
    (error: unknown) => {
      checks = [{ name: 'setup checks', status: 'error', message: `could not run: ${error instanceof Error ? error.message : String(error)}` }];
      log.error('momo-checkout setup checks could not run', { error });
    },
  );

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // /readyz answers 503 from now on; a load balancer that checks it stops sending new work
      // during the delay (MOMO_STOP_DELAY_MS), while this process still accepts what arrives.
      stopping = true;
      if (config.stopDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.stopDelayMs));
      // Stop accepting. Behind the service manager's socket, the connections not yet accepted wait
      // for the next process, and so must a client's next request: net.Server's close, not
      // http.Server's, which would also cut every idle kept-alive connection at once, racing a
      // client that is just then sending a notification on one (the service sends it once: a reset
      // is a lost outcome). Idle connections then end as on any day, after the keep-alive timeout
      // the client was told, and one with a request answers it with `Connection: close`. On a port
      // of its own the process closes the door anyway: idle connections are cut at once.
      draining = true;
      const closed = new Promise<void>((resolve) => {
        if (inherited) netServerClose.call(server, () => resolve());
        else server.close(() => resolve());
      });
      for (const res of streams) res.destroy();
      await waitUntil(() => busy.size === 0 && (!inherited || connections.size === 0), options.drainMs ?? 10_000);
      // Waits (a few seconds at most) for notifications being applied and deliveries under way.
      await companion.close(); // closes the store too
      await opened.hub?.close();
      server.closeAllConnections();
      await closed;
    })());

  return { url, companion, server, close };
}


/** Stops accepting without http.Server's extra step of cutting idle connections (see close()). */
const netServerClose = NetServer.prototype.close;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<T>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}
