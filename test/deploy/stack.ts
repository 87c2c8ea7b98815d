/**
 * What docs/deploy.md puts behind a proxy, started for real on free loopback ports: a self-signed
 * certificate for 127.0.0.1 (Debian's openssl CLI: the same command a merchant would type), the
 * sandbox as its own process started by the guide's staging command (section 7: it trusts that
 * certificate through NODE_EXTRA_CA_CERTS, so its notifications reach the companion through the
 * proxy over https, as the service's would), `momo-checkout serve` as a child process with the
 * guide's environment file and its staging lines (sections 1 and 7), and a small shop page
 * (the guide's `127.0.0.1:8000`) that creates checkouts through the server API on loopback and
 * serves the element. The proxy itself (nginx, Caddy) is started by each test.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoBundle } from '../../demo/bundle.js';
import { buildConsole } from '../../scripts/build-console.js';
import { freePort } from '../support/free-port.js';
import { startChildren } from './children.js';
import { guideBlock, parseEnvFile, parseShellCommand, root, substitute } from './guide.js';

const cli = join(root, 'src/server/cli.ts');

export interface Stack {
  dir: string;
  cert: string;
  key: string;
  /** Where the proxy must listen: the public URL's port. */
  proxyPort: number;
  /** `https://127.0.0.1:<proxyPort>`: the shop's origin and the companion's public one. */
  origin: string;
  companionPort: number;
  shopPort: number;
  sandboxPort: number;
  serverSecret: string;
  /** The element's script-tag bundle the shop serves. */
  bundle: Buffer;
  /** Everything the children printed (the companion's JSON log lines among them). */
  logs(): string;
  /** The companion's JSON log lines. */
  companionLines(): Array<Record<string, unknown>>;
  /** Spawns a child whose output goes to the logs; stopped by `close`. */
  spawnChild(name: string, command: string, args: string[], env?: Record<string, string>): ChildProcess;
  /** Polls until `probe` holds, or fails with the logs. */
  until(what: string, probe: () => Promise<boolean>, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The guide's sandbox command (section 7) with only its placeholders replaced: its variables, and
 * the arguments for this repository's CLI in place of `npx momo-checkout`.
 */
export async function guideSandboxCommand(sandboxPort: number, caFile: string, origin: string): Promise<{ env: Record<string, string>; args: string[] }> {
  const { env, argv } = parseShellCommand(
    substitute(await guideBlock('sandbox'), [['4010', String(sandboxPort)], ['/etc/momo-checkout/staging-ca.pem', caFile], ['https://shop.example', origin]]),
  );
  assert.deepEqual(argv, ['npx', 'momo-checkout', 'sandbox'], 'the guide starts the sandbox with npx momo-checkout sandbox');
  return { env, args: ['--import', 'tsx', cli, 'sandbox'] };
}

/** The guide's environment file (section 1) with its staging lines (section 7), placeholders replaced. */
export async function guideCompanionEnv(values: { origin: string; serverSecret: string; companionPort: number; sandboxPort: number }): Promise<Record<string, string>> {
  const production = parseEnvFile(
    substitute(await guideBlock('env'), [
      ['https://shop.example/momo', `${values.origin}/momo`],
      ['MOMO_SERVER_SECRET=replace-me', `MOMO_SERVER_SECRET=${values.serverSecret}`],
      ['PORT=3000', `PORT=${values.companionPort}`],
    ]),
  );
  const staging = parseEnvFile(substitute(await guideBlock('staging-env'), [['4010', String(values.sandboxPort)]]));
  for (const name of Object.keys(staging)) assert.ok(name in production, `the staging lines replace lines of the environment file (${name})`);
  return { ...production, ...staging };
}

/**
 * The shop (the guide's `127.0.0.1:8000`): a checkout page per order, the checkout created through
 * the companion's server API on loopback, and the element's script.
 */
export async function startShop(options: { port: number; companionPort: number; serverSecret: string; bundle: Buffer }): Promise<Server> {
  const shop = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    if (url.pathname === '/momo-checkout.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(options.bundle);
      return;
    }
    if (url.pathname !== '/checkout') return void res.writeHead(404).end();
    const orderId = url.searchParams.get('order') ?? 'order-1';
    const created = await fetch(`http://127.0.0.1:${options.companionPort}/momo/server/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.serverSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
    });
    const { token } = (await created.json()) as { token: string };
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Order ${orderId}</title>
<script src="/momo-checkout.js" defer></script>
<h1>Order ${orderId}: 5000 XOF</h1>
<momo-checkout endpoint="/momo" token="${token}" country="BJ"></momo-checkout></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(options.port, '127.0.0.1', resolve));
  return shop;
}

export function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'fullchain.pem');
  const key = join(dir, 'privkey.pem');
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout', key, '-out', cert,
  ], { encoding: 'utf8' });
  assert.equal(made.status, 0, `openssl made no certificate (install Debian's openssl package): ${made.error?.message ?? made.stderr}`);
  return { cert, key };
}

export async function startStack(options: { heartbeatMs: number }): Promise<Stack> {
  const dir = await mkdtemp(join(tmpdir(), 'momo-deploy-'));
  const { cert, key } = makeCertificate(dir);
  // The companion's JSON lines: info on stdout, warnings on stderr (kept apart: lines never interleave).
  const companionOut = { stdout: [] as string[], stderr: [] as string[] };
  const { spawnChild, until, logs, stopAll } = startChildren(dir);

  let shop: Server | undefined;
  const close = async () => {
    const exits = await stopAll();
    await new Promise((resolve) => (shop ? shop.close(resolve) : resolve(undefined)));
    shop?.closeAllConnections();
    await rm(dir, { recursive: true, force: true });
    return exits;
  };

  try {
    const [proxyPort, companionPort, shopPort, sandboxPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const origin = `https://127.0.0.1:${proxyPort}`;
    const serverSecret = randomBytes(32).toString('hex');
    const [bundle, consoleAssets] = await Promise.all([buildDemoBundle(), mkdtemp(join(dir, 'console-'))]);
    await buildConsole(consoleAssets);

    const sandbox = await guideSandboxCommand(sandboxPort, cert, origin);
    // Added by the test (the guide's table): a push settled 1.5 s after the click.
    spawnChild('sandbox', process.execPath, sandbox.args, { ...sandbox.env, PUSH_DELAY_MS: '1500' });
    // Up before the companion starts: its setup checks at start ask the service, and /readyz waits for them.
    await until('the sandbox to listen', async () => (await fetch(`http://127.0.0.1:${sandboxPort}/`)).status > 0);
    const companion = spawnChild('companion', process.execPath, ['--import', 'tsx', cli, 'serve'], {
      ...(await guideCompanionEnv({ origin, serverSecret, companionPort, sandboxPort })),
      // Added by the test (the guide's table): the unit's Environment= line, the console built here, section 6.
      MOMO_DATA_DIR: join(dir, 'data'),
      MOMO_CONSOLE_ASSETS_DIR: consoleAssets,
      MOMO_HEARTBEAT_MS: String(options.heartbeatMs),
      // The guide's table: the sandbox's approval page is on 127.0.0.1 here (a staging host's has a name).
      MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    });
    companion.stdout!.on('data', (chunk) => companionOut.stdout.push(String(chunk)));
    companion.stderr!.on('data', (chunk) => companionOut.stderr.push(String(chunk)));

    shop = await startShop({ port: shopPort, companionPort, serverSecret, bundle: bundle.code });

    await until('the companion to be ready', async () => (await fetch(`http://127.0.0.1:${companionPort}/readyz`)).status === 200);

    return {
      dir,
      cert,
      key,
      proxyPort,
      origin,
      companionPort,
      shopPort,
      sandboxPort,
      serverSecret,
      bundle: bundle.code,
      logs,
      // Whole lines only: the last one may still be arriving through the pipe.
      companionLines: () =>
        [companionOut.stdout, companionOut.stderr]
          .flatMap((chunks) => chunks.join('').split('\n').slice(0, -1))
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      spawnChild,
      until,
      close: async () => {
        const exits = await close();
        assert.ok(exits.every((code) => code === 0 || code === null), `every process stopped cleanly (exit codes ${exits.join(', ')})\n${logs()}`);
      },
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
