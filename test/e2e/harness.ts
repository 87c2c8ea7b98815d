/**
 * The e2e harness: the demo store started in-process on port 0 against the sandbox, Debian's
 * Chromium driven by playwright-core, and per page a record of what must never happen there
 * (CSP violations, console errors, uncaught exceptions) plus every `momo-state-change`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createLogger } from '../../src/server/index.js';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { describeCalls, summariseCalls, type CallSummary } from '../../demo/upstream-calls.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const screenshotDir = join(root, 'test-output', 'e2e');


export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/** Long enough to see "approve on your phone", short enough to keep the run fast. */
export const pushDelayMs = 1000;

/**
 * Holds final webhooks (`completed`, `failed`) while armed, so a test can see what the payer sees
 * before the outcome ("confirming" after an authorisation page) without racing the sandbox.
 */
export class WebhookGate {
  private held: Array<() => void> = [];
  private armed = false;

  arm(): void {
    this.armed = true;
  }

  release(): void {
    this.armed = false;
    for (const resume of this.held.splice(0)) resume();
  }

  readonly beforeWebhook = (rawBody: string): Promise<void> => {
    let status: unknown;
    try {
      status = (JSON.parse(rawBody) as { status?: unknown }).status;
    } catch {
      return Promise.resolve();
    }
    if (!this.armed || (status !== 'completed' && status !== 'failed')) return Promise.resolve();
    return new Promise((resolve) => this.held.push(resolve));
  };
}

/** The demo store against the sandbox, as every browser suite starts it (e2e here, engines in test/engines/). */
export interface TestDemo {
  demo: RunningDemo;
  webhooks: WebhookGate;
  /** The demo's, the sandbox's and the companion's log lines (kept quiet, shown on failure). */
  logs: string[];
  /** `METHOD /path` of every request the demo's server received, in order. */
  requests: string[];
}

export async function startTestDemo(options: { consolePassword?: string } = {}): Promise<TestDemo> {
  const logs: string[] = [];
  const requests: string[] = [];
  const webhooks = new WebhookGate();
  const demo = await startDemo({
    beforeWebhook: webhooks.beforeWebhook,
    onRequest: (request) => requests.push(`${request.method} ${new URL(request.url).pathname}`),
    port: 0,
    sandbox: { pushDelayMs },
    log: (line) => logs.push(line),
    companionLog: createLogger({ level: 'warn', sink: (line) => logs.push(line) }),
    ...options,
  });
  return { demo, webhooks, logs, requests };
}

export interface E2eEnv extends TestDemo {
  browser: Browser;
  close(): Promise<void>;
}

export async function startE2e(): Promise<E2eEnv> {
  const { demo, webhooks, logs, requests } = await startTestDemo();
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await demo.close();
    throw error;
  }
  await mkdir(screenshotDir, { recursive: true });
  return {
    demo,
    webhooks,
    browser,
    logs,
    requests,
    close: async () => {
      webhooks.release();
      await browser.close();
      await demo.close();
    },
  };
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Every status the element moved to, across navigations. */
  states: string[];
  cspViolations: string[];
  consoleErrors: string[];
  pageErrors: string[];
  /** `<status> <METHOD> <path>` of every answer >= 400 (Chromium also logs each one on the console). */
  failedRequests: string[];
  /** Index into `demo.upstreamCalls` when the page opened: the calls of this checkout come after it. */
  callMark: number;
}

/** A phone: narrow, touch (the approval page opens in the tab, issue 23). */
export const phone = { width: 390, height: 844, hasTouch: true, isMobile: true } as const;

/** Desktop width by default; the README screenshot and the flows use the same. */
export async function openCheckout(
  env: E2eEnv,
  query = '',
  screen: { width: number; height: number; hasTouch?: boolean; isMobile?: boolean } = { width: 1280, height: 900 },
): Promise<Watched> {
  const { width, height, ...touch } = screen;
  const context = await env.browser.newContext({ viewport: { width, height }, ...touch });
  const page = await context.newPage();
  const watched: Watched = { context, page, states: [], cspViolations: [], consoleErrors: [], pageErrors: [], failedRequests: [], callMark: env.demo.upstreamCalls.length };
  // Bindings survive navigations (the redirect flow leaves the page and comes back).
  await context.exposeBinding('__e2eReport', (_source, kind: string, value: string) => {
    if (kind === 'state') watched.states.push(value);
    else if (kind === 'csp') watched.cspViolations.push(value);
  });
  // An init script is injected by the browser itself, outside the page's CSP: it only listens.
  await context.addInitScript(() => {
    const report = (globalThis as unknown as { __e2eReport: (kind: string, value: string) => void }).__e2eReport;
    document.addEventListener('securitypolicyviolation', (event) => report('csp', `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`));
    document.addEventListener('momo-state-change', (event) => report('state', (event as CustomEvent<{ status: string }>).detail.status));
  });
  page.on('console', (message) => {
    // A 4xx/5xx answer is logged by Chromium itself; failedRequests holds those, with their URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded with a status of')) {
      watched.consoleErrors.push(`${message.text()} (${page.url()})`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) watched.failedRequests.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  const response = await page.goto(`${env.demo.url}/${query}`);
  assert.ok(response, 'the demo page answered');
  return watched;
}

/** The flow's last state, saved for a person to look at. */
export async function screenshot(watched: Watched, name: string): Promise<void> {
  await watched.page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Nothing the strict CSP blocked, nothing on the console, no uncaught exception, and no failed
 * request but the ones the flow expects (a refused OTP is a 400 from the companion).
 */
export function assertCleanPage(watched: Watched, expectedFailures: string[] = []): void {
  assert.deepEqual(watched.cspViolations, [], 'no Content-Security-Policy violation');
  assert.deepEqual(watched.pageErrors, [], 'no uncaught exception');
  assert.deepEqual(watched.consoleErrors, [], 'no console error');
  assert.deepEqual(watched.failedRequests, expectedFailures, 'no failed request but the expected ones');
}

/** Types a number the way a payer does, then leaves the field (validation runs on blur, §1). */
export async function enterNumber(page: Page, phoneNumber: string): Promise<void> {
  const field = page.getByLabel('Mobile money number');
  await field.fill('');
  await field.pressSequentially(phoneNumber);
  await field.press('Tab');
}

export function callsOf(env: E2eEnv, watched: Watched): CallSummary {
  return summariseCalls(env.demo.upstreamCalls.slice(watched.callMark));
}

/**
 * Issue 4 "Size and speed": one corridor lookup per number, at most one preview per (number,
 * choice), one accepted pay-in per attempt, and a re-post only after a 422 (or the payer's
 * corrected OTP after a 400). Prints the counts.
 */
export function assertCallBounds(name: string, calls: CallSummary, expected: { attempts: number; otpRetries?: number }): void {
  console.log(`upstream calls, ${name}: ${describeCalls(calls)}`);
  for (const [number, count] of Object.entries(calls.corridorLookups)) assert.ok(count <= 1, `one corridor lookup per number (got ${count} for …${number.slice(-2)})`);
  for (const [key, count] of Object.entries(calls.previews)) assert.ok(count <= 1, `at most one preview per number and choice (got ${count} for ${key.slice(-9)})`);
  assert.ok(calls.payInsAccepted <= expected.attempts, `one accepted pay-in per attempt (${calls.payInsAccepted} for ${expected.attempts})`);
  assert.equal(calls.payIns, expected.attempts + calls.payIns422 + (expected.otpRetries ?? 0), 'pay-ins: one per attempt plus one per 422 (plus the corrected OTP)');
}
