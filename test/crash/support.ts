/** Starting, killing and restarting a companion child process (companion-child.ts) for crash tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createCheckoutRecord } from '../../src/server/payments/checkouts.js';
import type { CheckoutStore } from '../../src/server/index.js';
import { openStoreFromEnv, type OpenedStore } from '../../src/server/stores/store-from-env.js';
import { freePort } from '../support/free-port.js';
import type { SharedStoreServer } from '../support/shared-stores.js';
export { freePort };

const childScript = new URL('./companion-child.ts', import.meta.url).pathname;


export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Child {
  process: ChildProcess;
  base: string;
  /** SIGKILL, and wait until the process is gone. */
  kill9(): Promise<void>;
  /** Resolves when the process exits by itself. */
  exited: Promise<number | null>;
  /** What the process wrote on stderr (the last 20,000 characters), for a failure's message. */
  stderr(): string;
}

export async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`companion child did not start in 20 s: ${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`companion child exited (${code}) before it was ready: ${stderr}`));
    });
  });
  return {
    process: child,
    base: `http://127.0.0.1:${env.PORT}/momo`,  // this process itself, not the front
    exited,
    stderr: () => stderr,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** What the merchant's onPaymentUpdate saw, across every life of the child. */
export function readUpdates(file: string): Array<{ ok: boolean; key: string; state: string; orderId: string }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** Creates a checkout straight in the store, as the merchant's server process would. */
export async function createCheckoutIn(store: CheckoutStore, orderId: string): Promise<string> {
  const created = await createCheckoutRecord(store, { orderId, amount: '5000', currencyCode: 'XOF' }, { ttlMs: 30 * 60_000, maxAttempts: 3, now: Date.now, defaultReturnUrl: null });
  return created.token;
}

export { until } from '../support/until.js';

/** Reads the page's status stream until a payment event satisfies `predicate`. */
export async function streamUntil(base: string, token: string, predicate: (view: { state: string }) => boolean, ms = 10_000): Promise<{ state: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const response = await fetch(`${base}/checkout/events`, { headers: { authorization: `Bearer ${token}`, origin: 'http://shop.test' }, signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the status stream ended before the expected state');
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split('\n').find((line) => line.startsWith('data: '));
        if (!data) continue;
        const view = JSON.parse(data.slice(6)) as { state: string };
        if (predicate(view)) return view;
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** The sandbox, a store, two companion processes on it (each reached at its own port) and the merchant's own handle on the store. */
export interface TwoOnOneStore {
  sandbox: RunningSandbox;
  children: Child[];
  merchant: OpenedStore;
  stop(): Promise<void>;
}

/** Starts {@link TwoOnOneStore} on the store `start` brings up; `env` is given to both processes. */
export async function startTwoOnOneStore(start: () => Promise<SharedStoreServer>, env: Record<string, string> = {}): Promise<TwoOnOneStore> {
  const sandbox = await startSandbox({ port: 0, pushDelayMs: 30, log: () => {} });
  const backend = await start();
  const storeEnv = backend.freshEnv();
  const ports = [await freePort(), await freePort()];
  const shared = { MOMO_BASE_URL: sandbox.url, MOMO_API_KEY: sandbox.apiKey, MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret, ...storeEnv, ...env };
  const children = await Promise.all(ports.map((port) => startChild({ ...shared, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}/momo` })));
  const merchant = await openStoreFromEnv(storeEnv);
  return {
    sandbox,
    children,
    merchant,
    async stop() {
      await Promise.all(children.map((child) => child.kill9()));
      await merchant.store.close?.();
      await merchant.hub?.close();
      await backend.stop();
      await sandbox.close();
    },
  };
}
