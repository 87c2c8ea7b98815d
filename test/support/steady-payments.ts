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

/** Creates and pays `count` orders named `<prefix>-<n>`, `parallel` at a time; returns their ids. */
export async function openOrders(shop: Shop, prefix: string, count: number, parallel = 8): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, n) => `${prefix}-${n + 1}`);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const orderId = ids[next++]!;
      const { token } = (await call(`${shop.publicUrl}/server/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, amount: '1500', currencyCode: 'XOF' }),
      })) as { token: string };
      const paid = (await call(`${shop.publicUrl}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: shop.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: neverAnswers, useWallet: false }),
      })) as { state: string };
      if (paid.state !== 'pending') throw new Error(`${orderId}: the pay answered ${paid.state}, not pending`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}

export interface SteadySettlements {
  /** Resolves when every settlement's notification has been attempted. */
  done: Promise<void>;
  /** How many settlements have been started so far. */
  started(): number;
}

/**
 * Settles `orderIds` as completed, `perSecond` of them a second, on a fixed schedule: a
 * notification waiting for a restart does not hold back the next one, as the service's do not.
 */
export function settleSteadily(sandbox: RunningSandbox, orderIds: readonly string[], perSecond: number): SteadySettlements {
  const startedAt = Date.now();
  const attempts: Array<Promise<void>> = [];
  const done = (async () => {
    for (const [n, orderId] of orderIds.entries()) {
      const wait = startedAt + (n * 1000) / perSecond - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      attempts.push(sandbox.control.settle(orderId, 'completed'));
    }
    await Promise.all(attempts);
  })();
  return { done, started: () => attempts.length };
}

/** The sandbox's failed attempts to notify the companion of `orderIds`' settlements. */
export function refusedNotifications(sandbox: RunningSandbox, orderIds: readonly string[]): Array<{ orderId: string; at: number; error: string }> {
  const ours = new Set(orderIds);
  return sandbox.control
    .deliveries()
    .filter((attempt) => ours.has(attempt.orderId) && !attempt.ok)
    .map((attempt) => ({ orderId: attempt.orderId, at: attempt.at, error: attempt.error ?? `HTTP ${attempt.httpStatus}` }));
}
