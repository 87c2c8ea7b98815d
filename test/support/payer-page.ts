/**
 * What a payer's page does against a running companion, for the store fault tests: create a checkout
 * (server API), pay it with a number the sandbox leaves pending, hold its status stream open and
 * watch every view it brings; and what the service does: post the signed `completed` notification,
 * again until it is answered 200 (as the service retries).
 */
import { signWebhook } from '../../src/server/index.js';

export const pendingNumber = '+2290196000003';

export interface PayerPage {
  /** Creates checkout `orderId` (5000 XOF) through the server API and returns its token. */
  checkout(orderId: string): Promise<string>;
  /** Pays with {@link pendingNumber}: the state the pay route answers. */
  pay(token: string): Promise<string>;
  /** Opens the status stream and resolves once its first view has come (the stream is open). */
  watch(token: string): Promise<WatchedStream>;
  /** Posts the `completed` notification of `orderId` until the companion answers 200. */
  complete(orderId: string): Promise<void>;
}

export interface WatchedStream {
  /** Every state the stream sent, in order. */
  states: string[];
  /** Resolves when the stream has sent `state`, or rejects after `ms`. */
  until(state: string, ms: number): Promise<void>;
  close(): void;
}

export function payerPage(options: { base: string; serverSecret: string; webhookSecret: string }): PayerPage {
  const { base } = options;
  return {
    async checkout(orderId) {
      const answer = await fetch(`${base}/server/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.serverSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, amount: '5000', currencyCode: 'XOF' }),
      });
      const body = (await answer.json()) as { token?: string };
      if (answer.status !== 200 || !body.token) throw new Error(`checkout ${orderId}: ${answer.status} ${JSON.stringify(body)}`);
      return body.token;
    },
    async pay(token) {
      const answer = await fetch(`${base}/checkout/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, origin: new URL(base).origin, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: pendingNumber, useWallet: false }),
      });
      const body = (await answer.json()) as { state?: string };
      if (!body.state) throw new Error(`pay: ${answer.status} ${JSON.stringify(body)}`);
      return body.state;
    },
    watch: (token) => watchStream(base, token),
    async complete(orderId) {
      const body = await signWebhook({ phoneNumber: pendingNumber, amount: 5000, orderId, status: 'completed' }, options.webhookSecret);
      const end = Date.now() + 20_000;
      for (;;) {
        try {
          const answer = await fetch(`${base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
          await answer.arrayBuffer();
          if (answer.status === 200) return;
        } catch {
          // not reachable yet: the service tries again
        }
        if (Date.now() > end) throw new Error(`the notification of ${orderId} was not taken within 20 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** Opens the status stream of `token` as a page of `origin` does, once its first view has come. */
export async function watchStream(base: string, token: string, origin = new URL(base).origin): Promise<WatchedStream> {
  const controller = new AbortController();
  const states: string[] = [];
  const waiters = new Set<() => void>();
  const response = await fetch(`${base}/checkout/events`, { headers: { authorization: `Bearer ${token}`, origin }, signal: controller.signal });
  if (response.status !== 200) throw new Error(`the status stream answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let first = () => {};
  const opened = new Promise<void>((resolve) => (first = resolve));
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          states.push((JSON.parse(data.slice(6)) as { state: string }).state);
          first();
          for (const wake of [...waiters]) wake();
        }
      }
    } catch {
      // closed by the test
    }
  })();
  await opened;
  return {
    states,
    until: (state, ms) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!states.includes(state)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the stream did not bring "${state}" within ${ms} ms (it brought ${states.join(', ')})`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () => controller.abort(),
  };
}

/**
 * Issue 40 §3, on any shared store: payers wait on open status streams (two tabs each) while the
 * store's server goes down and comes back (`outage` resolves once it is back); payments completed
 * 0, 0.5 and 1 s after that must reach every stream, well within its 5-minute life, and nothing
 * else (never a state going back, never one twice). Resolves with how long after the restart the
 * last stream heard its completion.
 */
export async function streamsHearCompletionsAfter(page: PayerPage, label: string, outage: () => Promise<void>, withinMs = 15_000): Promise<number> {
  const orders = await Promise.all(
    [0, 500, 1_000].map(async (delay) => {
      const orderId = `${label}-${delay}-${Date.now()}`;
      const token = await page.checkout(orderId);
      const state = await page.pay(token);
      if (state !== 'pending') throw new Error(`${orderId} is ${state}, not pending, after the pay`);
      return { orderId, delay, streams: [await page.watch(token), await page.watch(token)] };
    }),
  );
  try {
    await outage();
    const backAt = Date.now();
    await Promise.all(
      orders.map(async ({ orderId, delay }) => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        await page.complete(orderId);
      }),
    );
    await Promise.all(orders.flatMap(({ streams }) => streams.map((stream) => stream.until('completed', withinMs))));
    const heardAfterMs = Date.now() - backAt;
    for (const { orderId, streams } of orders) {
      for (const stream of streams) {
        if (stream.states.join() !== 'pending,completed') throw new Error(`${orderId}'s stream brought ${stream.states.join(', ')}, not pending then completed`);
      }
    }
    return heardAfterMs;
  } finally {
    for (const { streams } of orders) for (const stream of streams) stream.close();
  }
}
