/**
 * The integration of docs/backends.md run for real from another language: the sandbox, then
 * `momo-checkout serve` as a child process, then the merchant's app (PHP or Python, from
 * docs/backends/) which creates the checkout and receives the notifications; a payer pays in
 * Chromium on the merchant's page; the app verifies each notification and refuses tampered ones.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { buildDemoBundle } from '../../demo/bundle.js';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/free-port.js';
export { freePort };

export const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'src/server/cli.ts');
const serverSecret = 'backends-test-server-secret-0123456789abcdef';
export const merchantSecret = `whsec_${Buffer.from('backends-test-merchant-key-32-bytes!').toString('base64')}`;
const approve = '+2290196000001';

/** Fails (never skips) when the language runtime is missing, with how to install it. */
export function requireRuntime(command: string, versionArgs: string[], hint: string, extraCheck?: () => string | null): void {
  const probe = spawnSync(command, versionArgs, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) assert.fail(`${command} is not installed or does not run (${probe.error?.message ?? probe.stderr}). Install it: ${hint}`);
  const problem = extraCheck?.();
  if (problem) assert.fail(problem);
}


async function until(what: string, predicate: () => boolean | Promise<boolean>, ms: number, logs: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await Promise.resolve().then(predicate).catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- logs ---\n${logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface AppEnv {
  [name: string]: string;
  MOMO_SERVER_URL: string;
  MOMO_SERVER_SECRET: string;
  MOMO_MERCHANT_WEBHOOK_SECRET: string;
  MOMO_ENDPOINT: string;
  MOMO_ELEMENT_SCRIPT: string;
  MOMO_EVENTS_FILE: string;
  /** The element's script as the package ships it, for a shop that serves it itself (with its integrity hash). */
  MOMO_ELEMENT_FILE: string;
  SHOP_URL: string;
}

export interface Backend {
  /** The merchant's app, listening on 127.0.0.1:port with `env`; started `detached` (its process group is stopped). */
  start(port: number, env: AppEnv): ChildProcess;
  checkoutPath: (orderId: string, amount: string) => string;
  webhookPath: string;
}

export interface Scenario {
  shopUrl: string;
  webhookUrl: string;
  serverUrl: string;
  eventsFile: string;
  /** The sandbox on its own port; none when `serve --sandbox` holds it. */
  sandbox?: RunningSandbox;
  browser: Browser;
  bundle: Buffer;
  logs: () => string;
  /** The companion's server secret (the server API, `momo-checkout redeliver`). */
  serverSecret: string;
  /** Stops the shop's app and starts it again (its `start` reads its configuration anew), once it listens. */
  restartShop(): Promise<void>;
  close(): Promise<void>;
}

function collect(child: ChildProcess, name: string, into: string[]): void {
  child.stdout?.on('data', (chunk) => into.push(`[${name}] ${String(chunk)}`));
  child.stderr?.on('data', (chunk) => into.push(`[${name}] ${String(chunk)}`));
}

/** `group`: the child was started `detached` and may have children of its own (php -S workers): stop them all. */
function stopChild(child: ChildProcess, group = false): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('close', (code) => resolve(code));
    if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    else child.kill('SIGTERM');
  });
}

/**
 * `sandboxInServe`: the companion is `momo-checkout serve --sandbox` (the sandbox on its own origin,
 * no service variable given), instead of `serve` against a sandbox on another port. `companionEnv`
 * overrides the companion's variables (undefined: not set).
 */
export async function startScenario(backend: Backend, options: { sandboxInServe?: boolean; companionEnv?: Record<string, string | undefined> } = {}): Promise<Scenario> {
  const lines: string[] = [];
  const logs = () => lines.join('').slice(-6000);
  const dir = await mkdtemp(join(tmpdir(), 'momo-backends-'));
  const eventsFile = join(dir, 'events.jsonl');
  const bundle = (await buildDemoBundle()).code;
  const elementFile = join(dir, 'momo-checkout.js');
  await writeFile(elementFile, bundle);
  const sandbox = options.sandboxInServe ? undefined : await startSandbox({ port: 0, pushDelayMs: 500, log: () => {} });
  const [shopPort, companionPort] = [await freePort(), await freePort()];
  const shopUrl = `http://127.0.0.1:${shopPort}`;
  const publicUrl = `http://127.0.0.1:${companionPort}/momo`;
  const webhookUrl = `${shopUrl}${backend.webhookPath}`;

  // The service's variables (serve --sandbox makes its own), and the default store, a file, in a folder of this run's own.
  const serviceEnv = sandbox
    ? {
        MOMO_BASE_URL: sandbox.url,
        MOMO_API_KEY: sandbox.apiKey,
        MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
        MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
        MOMO_DATA_DIR: await mkdtemp(join(tmpdir(), 'momo-serve-data-')),
      }
    : {};
  const companion = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', ...(sandbox ? [] : ['--sandbox'])], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...serviceEnv,
      MOMO_PUBLIC_URL: publicUrl,
      MOMO_ALLOWED_ORIGINS: shopUrl,
      MOMO_SERVER_SECRET: serverSecret,
      MOMO_MERCHANT_WEBHOOK_URL: webhookUrl,
      MOMO_MERCHANT_WEBHOOK_SECRET: merchantSecret,
      // The shops of today's docs answer 2xx to a type they do not handle: they take every type.
      MOMO_MERCHANT_EVENTS: 'payment.updated,refund.updated,test.ping',
      PORT: String(companionPort),
      ...options.companionEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  collect(companion, 'companion', lines);
  const appEnv: AppEnv = {
    MOMO_SERVER_URL: `${publicUrl}/server`,
    MOMO_SERVER_SECRET: serverSecret,
    MOMO_MERCHANT_WEBHOOK_SECRET: merchantSecret,
    MOMO_ENDPOINT: publicUrl,
    MOMO_ELEMENT_SCRIPT: `${shopUrl}/assets/momo-checkout.js`,
    MOMO_EVENTS_FILE: eventsFile,
    MOMO_ELEMENT_FILE: elementFile,
    SHOP_URL: shopUrl,
  };
  let app = backend.start(shopPort, appEnv);
  collect(app, 'shop', lines);
  const shopListens = () =>
    until('the shop to listen', async () => {
      await fetch(`${shopUrl}/`);
      return true;
    }, 30_000, logs);
  const restartShop = async () => {
    await stopChild(app, true);
    app = backend.start(shopPort, appEnv);
    collect(app, 'shop', lines);
    await shopListens();
  };
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    const [companionExit] = await Promise.all([stopChild(companion), stopChild(app, true)]);
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
    assert.equal(companionExit, 0, `momo-checkout serve exits 0 on SIGTERM\n${logs()}`);
  };
  try {
    await until('the companion to be ready', async () => (await fetch(`http://127.0.0.1:${companionPort}/readyz`)).status === 200, 30_000, logs);
    await shopListens();
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { shopUrl, webhookUrl, serverUrl: `${publicUrl}/server`, eventsFile, sandbox, browser, bundle, logs, serverSecret, restartShop, close };
}

export async function readEvents(file: string): Promise<Array<{ webhookId: string; orderId: string; state: string; amount: string; fulfilled: boolean }>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/**
 * The payer's side: the merchant's checkout page in a fresh Chromium context, a push number typed,
 * then `pay` (which presses Pay and waits for the outcome); no page error on the way.
 */
export async function payOnShopPage(scenario: Scenario, backend: Backend, orderId: string, pay: (page: Page) => Promise<void>, options: { pinned?: boolean } = {}): Promise<void> {
  const context = await scenario.browser.newContext();
  try {
    // The element's script comes from a CDN in production; here the test serves the current build.
    await context.route('**/assets/momo-checkout.js', (route) => route.fulfill({ body: scenario.bundle, contentType: 'text/javascript' }));
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${scenario.shopUrl}${backend.checkoutPath(orderId, '5000')}`);
    assert.equal(response?.status(), 200, `the shop's checkout page (it created the checkout)\n${scenario.logs()}`);
    // Pinned by its hash (the browser runs it only if it matches: paying proves it does); 0.1.0's pages were not.
    if (options.pinned !== false) assert.match((await page.locator('script[src$="/momo-checkout.js"]').getAttribute('integrity')) ?? '', /^sha384-[A-Za-z0-9+/]+=*$/);
    const field = page.getByLabel('Mobile money number');
    await field.pressSequentially(approve);
    await field.press('Tab');
    await pay(page);
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
}

/** A push payment: Pay, then "Payment received". */
export async function payInChromium(scenario: Scenario, backend: Backend, orderId: string, options: { pinned?: boolean } = {}): Promise<void> {
  await payOnShopPage(scenario, backend, orderId, async (page) => {
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 15_000 });
  }, options);
}

export async function waitForEvents(scenario: Scenario, orderId: string, count: number) {
  await until(`${count} notifications for ${orderId} at the shop`, async () => (await readEvents(scenario.eventsFile)).filter((event) => event.orderId === orderId).length >= count, 15_000, scenario.logs);
  return (await readEvents(scenario.eventsFile)).filter((event) => event.orderId === orderId);
}

/** Posts a notification signed with `secret` (or tampered after signing) straight to the shop's endpoint. */
export async function postSigned(
  scenario: Scenario,
  event: unknown,
  options: { secret?: string; tamper?: (body: string) => string; ageSeconds?: number; id?: string } = {},
): Promise<number> {
  const body = JSON.stringify(event);
  const id = options.id ?? `test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const at = new Date(Date.now() - (options.ageSeconds ?? 0) * 1000);
  const signature = new Webhook(options.secret ?? merchantSecret).sign(id, at, body);
  const response = await fetch(scenario.webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body: options.tamper ? options.tamper(body) : body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The shared scenario of both languages. */
export async function provesIntegration(scenario: Scenario, backend: Backend): Promise<void> {
  const orderId = `order-${process.pid}-${Date.now()}`;
  await payInChromium(scenario, backend, orderId);

  // The checkout was created by the shop's code through the server API.
  const details = (await (await fetch(`${scenario.serverUrl}/payments/${orderId}`, { headers: { authorization: `Bearer ${serverSecret}` } })).json()) as any;
  assert.equal(details.amount, '5000');
  assert.equal(details.payment.state, 'completed');

  // Each transition reached the shop, verified by its code, in order, each with its own webhook-id.
  const events = await waitForEvents(scenario, orderId, 2);
  assert.deepEqual(events.map((event) => event.state), ['pending', 'completed']);
  const [first, second] = events.map((event) => event.webhookId);
  assert.match(first!, new RegExp(`^${orderId}\\.[\\w-]{12}\\.1$`), 'webhook-id is <orderId>.<lifeId>.<version>');
  assert.equal(second, first!.replace(/1$/, '2'), 'the same life of the order, the next version');
  assert.ok(events.every((event) => event.amount === '5000'));
  assert.deepEqual(events.map((event) => event.fulfilled), [false, true], 'the order is fulfilled when paid, once');

  // The shop's verification refuses what it must, and accepts a genuine signature.
  const genuine = { type: 'payment.updated', timestamp: new Date().toISOString(), data: { orderId: 'probe-1', idempotencyKey: 'probe-1.1', amount: '5000', currencyCode: 'XOF', amountMismatch: false, previousState: 'pending', payment: { state: 'completed' } } };
  const before = (await readEvents(scenario.eventsFile)).length;
  assert.equal(await postSigned(scenario, genuine, { tamper: (body) => body.replace('"5000"', '"50"') }), 400, 'a tampered body is refused');
  assert.equal(await postSigned(scenario, genuine, { secret: `whsec_${Buffer.from('another-secret-of-thirty-two-bytes!').toString('base64')}` }), 400, 'another secret is refused');
  assert.equal(await postSigned(scenario, genuine, { ageSeconds: 3600 }), 400, 'a replay an hour old is refused');
  assert.equal((await readEvents(scenario.eventsFile)).length, before, 'nothing refused was recorded');
  const id = `probe-${Date.now()}`;
  assert.ok([200, 204].includes(await postSigned(scenario, genuine, { id })), 'a genuine signature is accepted');
  assert.equal((await readEvents(scenario.eventsFile)).length, before + 1);

  // Sent again under its webhook-id (a retry, a redeliver): accepted, and handled only once.
  assert.ok([200, 204].includes(await postSigned(scenario, genuine, { id })), 'a notification sent again is acknowledged');
  assert.equal((await readEvents(scenario.eventsFile)).length, before + 1, 'a webhook-id already kept is not handled twice');
  // Another notification of a fulfilled order (a new webhook-id) does not fulfil it again.
  assert.ok([200, 204].includes(await postSigned(scenario, genuine)));
  const probe = (await readEvents(scenario.eventsFile)).filter((event) => event.orderId === 'probe-1');
  assert.deepEqual(probe.map((event) => event.fulfilled), [true, false], 'fulfilled once');
}

/** `momo-checkout <args>` run as a merchant runs it, against the scenario's companion. */
export function runCli(args: string[], scenario: Scenario): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', MOMO_PUBLIC_URL: scenario.serverUrl.replace(/\/server$/, ''), MOMO_SERVER_SECRET: scenario.serverSecret },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stdout += chunk));
    child.on('close', (status) => resolve({ status, stdout }));
  });
}
