/**
 * A shop's traffic for the "nothing refused" tests: orders created through the server API and
 * paid by push from the payer's page routes (left pending: the sandbox's number that never
 * answers), then settled by the sandbox at a steady rate, each settlement sending its one-shot
 * notification to the companion as the service does (§6.4). What the service saw is then read
 * from the sandbox's own record of its attempts.
 */
import type { RunningSandbox } from '../../src/sandbox/index.js';

/** The sandbox's Benin number whose push is never answered: the payment waits for `settle`. */
const neverAnswers = '+2290196000003';

/**
 * `serve`'s environment for such a shop on 127.0.0.1:`port`, on the file store in `dataDir`, the
 * sandbox as the service and `merchantWebhookUrl` told of each transition.
 */
export function shopServeEnv(sandbox: RunningSandbox, shop: Omit<Shop, 'publicUrl'> & { port: number; dataDir: string; merchantWebhookUrl: string; merchantWebhookSecret: string }): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    MOMO_BASE_URL: sandbox.url,
    MOMO_API_KEY: sandbox.apiKey,
    MOMO_WEBHOOK_SECRETS: sandbox.webhookSecret,
    MOMO_PUBLIC_URL: `http://127.0.0.1:${shop.port}/momo`,
    MOMO_ALLOW_INSECURE_LOCAL_URLS: '1',
    MOMO_ALLOWED_ORIGINS: shop.origin,
    MOMO_SERVER_SECRET: shop.serverSecret,
    MOMO_MERCHANT_WEBHOOK_URL: shop.merchantWebhookUrl,
    MOMO_MERCHANT_WEBHOOK_SECRET: shop.merchantWebhookSecret,
    MOMO_DATA_DIR: shop.dataDir,
    PORT: String(shop.port),
  };
}

export interface Shop {
  /** The companion's public URL (`.../momo`), where the shop and the payer reach it. */
  publicUrl: string;
  serverSecret: string;
  /** An origin in MOMO_ALLOWED_ORIGINS. */
  origin: string;
}

async function call(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Creates and pays `count` orders named `<prefix>-<n>`, `parallel` at a time; returns their ids.
 * Each pay comes from a payer address of its own (`X-Forwarded-For`, believed only behind a trusted
 * proxy: MOMO_TRUST_PROXY), as many payers would: one address is limited to 120 calls a minute.
 */
export async function openOrders(shop: Shop, prefix: string, count: number, parallel = 8): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, n) => `${prefix}-${n + 1}`);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const orderId = ids[index]!;
      const { token } = (await call(`${shop.publicUrl}/server/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, amount: '1500', currencyCode: 'XOF' }),
      })) as { token: string };
      const paid = (await call(`${shop.publicUrl}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: shop.origin, 'content-type': 'application/json', 'x-forwarded-for': `10.77.${index >> 8}.${index & 255}` },
        body: JSON.stringify({ phoneNumber: neverAnswers, useWallet: false }),
      })) as { state: string };
      if (paid.state !== 'pending') throw new Error(`${orderId}: the pay answered ${paid.state}, not pending`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

export interface SteadySettlements {
  /** The orders whose settlement has started, in order. */
  settled: string[];
  /** Resolves once every order was settled and each settlement's notification attempted. */
  finish(): Promise<void>;
  /**
   * Stops settling; resolves with the orders settled, once each one's notification was attempted.
   * Fails when the orders ran out first: the stream must outlast what it was started for.
   */
  stop(): Promise<string[]>;
}

/**
 * Settles `orderIds` as completed with `settle` (the sandbox's control surface, in this process or
 * over HTTP), `perSecond` of them a second, each on its own beat: a notification waiting for a
 * restart does not hold back the next one, as the service's do not.
 */
export function settleSteadily(settle: (orderId: string) => Promise<void>, orderIds: readonly string[], perSecond: number): SteadySettlements {
  const settled: string[] = [];
  const attempts: Array<Promise<void>> = [];
  const startedAt = Date.now();
  let stopped = false;
  let ranOut = false;
  let allStarted!: () => void;
  const everyOneStarted = new Promise<void>((resolve) => (allStarted = resolve));
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    if (settled.length === orderIds.length) {
      ranOut = true;
      return allStarted();
    }
    const orderId = orderIds[settled.length]!;
    settled.push(orderId);
    attempts.push(settle(orderId));
    timer = setTimeout(tick, Math.max(0, startedAt + (settled.length * 1000) / perSecond - Date.now()));
  };
  tick();
  return {
    settled,
    async finish() {
      await everyOneStarted;
      await Promise.all(attempts);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(attempts);
      if (ranOut) throw new Error(`the stream ran out of payments (${orderIds.length}) before it was stopped: make more`);
      return settled;
    },
  };
}

/** `settle` for a sandbox running in this process. */
export const settleIn = (sandbox: RunningSandbox) => (orderId: string) => sandbox.control.settle(orderId, 'completed');

/** The sandbox's failed attempts to notify the companion of `orderIds`' settlements. */
export function refusedNotifications(sandbox: RunningSandbox, orderIds: readonly string[]): Array<{ orderId: string; at: number; endedAt: number; error: string }> {
  const ours = new Set(orderIds);
  return sandbox.control
    .deliveries()
    .filter((attempt) => ours.has(attempt.orderId) && !attempt.ok)
    .map((attempt) => ({ orderId: attempt.orderId, at: attempt.at, endedAt: attempt.endedAt, error: attempt.error ?? `HTTP ${attempt.httpStatus}` }));
}

/**
 * Of the failed notifications, those in flight when a process was killed with `kill -9`: the ones
 * it had accepted and not answered, which failed when the kernel closed its connections, between
 * the kill and a second after the process was gone (the sender notices a little later under load).
 * Counted by when they failed, not when they were sent: behind a held socket a notification may
 * wait in the queue through a restart and be accepted by the process just before it is killed.
 * Never one refused (a held socket refuses none). What a kill may lose; nothing else may fail.
 */
export function inFlightAtKill<T extends { endedAt: number; error?: string | undefined }>(failed: readonly T[], kill: { killedAt: number; goneAt: number }): T[] {
  return failed.filter((attempt) => attempt.endedAt >= kill.killedAt && attempt.endedAt <= kill.goneAt + 1_000 && !attempt.error?.includes('ECONNREFUSED'));
}
