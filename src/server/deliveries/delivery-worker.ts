/**
 * Part `deliveries/` (docs/architecture.md): what we tell the merchant: the delivery worker (queue,
 * retries, order) and the merchant notifications (Standard Webhooks) it sends in standalone mode (`serve`). May
 * import stores/, model/ and the foundation.
 *
 * Delivers queued transitions to the merchant (its `onPaymentUpdate`, or its HTTP endpoint in
 * standalone mode): at least once, in order per order and sink, retried with backoff while the
 * merchant's code throws, times out or answers non-2xx, also across restarts (the queue lives in
 * the checkout record, written with the transition itself).
 *
 * One order's deliveries never wait for another's: each order is delivered on its own, under a
 * store lock (`deliver:<orderId>`) so that one process at a time delivers it.
 *
 * This file is the worker: which orders are delivered when (a kick after a transition, the poll)
 * and one order's rounds under its lock. One attempt of one delivery is delivery-attempt.ts, the
 * backoff schedule delivery-backoff.ts.
 */
import type { Logger } from '../log.js';
import { deliveryHeads, type CheckoutRecord, type DeliveryRecord, type DeliverySink } from '../model/records.js';
import type { CheckoutStore } from '../stores/store.js';
import { randomId } from '../tokens.js';
import { attemptDelivery, dropUnsubscribed, type DeliverFunction, type DeliveryDeps } from './delivery-attempt.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';
import { defaultGiveUpAfterMs, defaultRetryDelaysMs } from './delivery-backoff.js';
import { companionDefaults } from '../model/option-defaults.js';

export type { DeliverFunction, DeliveryResult } from './delivery-attempt.js';

export interface DeliveryOptions {
  store: CheckoutStore;
  log: Logger;
  now: () => number;
  sinks: Partial<Record<DeliverySink, DeliverFunction>>;
  /** How long one delivery may take before it counts as failed. Default 10 s. */
  timeoutMs?: number;
  /** Waits before retry N (the last one repeats). Default 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h. */
  retryDelaysMs?: readonly number[];
  /** Given up (and logged as an error) this long after the transition. Default 72 h. */
  giveUpAfterMs?: number;
  /**
   * How often the store is asked for due deliveries: the one timer that drives them (retries, and
   * what a restart left queued). Default 1 s.
   */
  pollMs?: number;
  /** Each attempt's outcome, by sink (metrics/). */
  metrics?: MetricsRecorder;
  /**
   * Whether a queued delivery's sink still takes its type (delivery-sinks.ts `stillSubscribed`),
   * asked when it is sent: one queued before the subscription was narrowed is dropped, unsent.
   * Default: every delivery is.
   */
  subscribed?: (delivery: DeliveryRecord) => boolean;
}

export interface DeliveryWorker {
  /** Delivers what is due for one order now (after a transition queued something). */
  kick(orderId: string): void;
  /**
   * Delivers what is due for one order now and resolves when that round is done (a redelivery the
   * merchant asked for answers with how it went).
   */
  deliverNow(orderId: string): Promise<void>;
  /** Delivers everything due now, across orders; resolves when that round is done. */
  runDue(): Promise<void>;
  /** Runs a first round at once (what a restart left due), then one every `pollMs`. */
  start(): void;
  /** Stops polling; waits up to `waitMs` for deliveries under way (the rest stays queued). */
  stop(waitMs?: number): Promise<void>;
}

/** How many due orders one read of the store returns; a full batch means more may be due. */
const batchSize = 200;

function dueHeads(checkout: CheckoutRecord, at: number): DeliveryRecord[] {
  return deliveryHeads(checkout).filter((head) => head.nextAttemptAt <= at);
}

/**
 * Delivers one order's due heads, round after round, under its store lock (another process holding
 * it delivers them instead). Calls `attempting` with each round's number of attempts.
 *
 * A round after attempts starts from the record those attempts wrote, not from a read (issue 43:
 * that read found nothing due after almost every notification). Only this lock's holder delivers
 * the order, so the written record holds every delivery's state; what it may miss is a delivery
 * another process queued since, whose own kick found the lock held. So did the read, when that
 * write came after it: the store's poll (`pollMs`) delivers it, in either case. A kick in this
 * process runs one more round once this one ends (`again`), which reads.
 */
async function deliverOrder(deps: DeliveryDeps, orderId: string, attempting: (count: number) => void): Promise<void> {
  const { store } = deps;
  const owner = randomId(12);
  // The lease outlives one delivery's timeout, so a live holder is never overtaken.
  if (!(await store.claimLock(`deliver:${orderId}`, owner, deps.timeoutMs * 3))) return;
  try {
    /** The record as the last round's attempts left it, when they all wrote one. */
    let written: CheckoutRecord | undefined;
    for (let round = 0; round < 100; round++) {
      const checkout = written ?? (await store.getByOrderId(orderId));
      written = undefined;
      const heads = checkout ? dueHeads(checkout, deps.now()) : [];
      if (heads.length === 0) return;
      const unsubscribed = heads.filter((delivery) => !deps.subscribed(delivery));
      if (unsubscribed.length > 0) {
        // Taken off the queue unsent; the next round reads the heads behind them.
        await dropUnsubscribed(deps, orderId, unsubscribed);
        continue;
      }
      // Sinks are independent: a merchant endpoint that is down does not hold up the callback.
      attempting(heads.length);
      // One head (the usual case) writes its outcome against the record it was read from; several
      // would race for it, so each reads its own.
      const justRead = heads.length === 1 ? checkout : undefined;
      const records = await Promise.all(heads.map((delivery) => attemptDelivery(deps, orderId, delivery, justRead)));
      written = latestOf(records);
    }
  } finally {
    await store.releaseLock(`deliver:${orderId}`, owner);
  }
}

/**
 * The newest of the records this round's attempts wrote (the highest revision: each write was made
 * against the one before it, so it holds them all), or undefined when one found no record.
 */
function latestOf(records: ReadonlyArray<CheckoutRecord | undefined>): CheckoutRecord | undefined {
  let latest: CheckoutRecord | undefined;
  for (const record of records) {
    if (record === undefined) return undefined;
    if (latest === undefined || record.revision > latest.revision) latest = record;
  }
  return latest;
}

export function createDeliveryWorker(options: DeliveryOptions): DeliveryWorker {
  const deps: DeliveryDeps = {
    store: options.store,
    log: options.log,
    now: options.now,
    sinks: options.sinks,
    timeoutMs: options.timeoutMs ?? companionDefaults.deliveryTimeoutMs,
    retryDelaysMs: options.retryDelaysMs?.length ? options.retryDelaysMs : defaultRetryDelaysMs,
    giveUpAfterMs: options.giveUpAfterMs ?? defaultGiveUpAfterMs,
    subscribed: options.subscribed ?? (() => true),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
  const { store, log, now } = deps;
  /** The round under way per order, and the orders kicked again meanwhile (one more round each). */
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let attempted = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let firstRound: ReturnType<typeof setTimeout> | undefined;
  let polling: Promise<void> | undefined;

  /**
   * Set by `stop`: a transition applied while the companion closes (its notifications' work is
   * waited for after the worker stops) leaves its delivery queued for the next start, instead of a
   * round whose lease the closing store could commit and then never release.
   */
  let stopped = false;

  const kick = (orderId: string) => {
    if (stopped) return;
    if (running.has(orderId)) {
      again.add(orderId);
      return;
    }
    const work = deliverOrder(deps, orderId, (count) => (attempted += count))
      .catch((error: unknown) => log.error('payment update delivery failed; it stays queued', { orderId, error }))
      .finally(() => {
        running.delete(orderId);
        if (again.delete(orderId)) kick(orderId);
      });
    running.set(orderId, work);
  };

  const runDue = async () => {
    // A full batch that got somewhere means more may be due: go on, so a backlog (the merchant's
    // endpoint back after an outage) drains at the endpoint's speed, not 200 per poll (bench/service.ts).
    // A batch that attempted nothing (locked by another process) waits for the next poll.
    for (let batch = 0; batch < 50; batch++) {
      const before = attempted;
      const due = await store.dueDeliveries(now(), batchSize);
      for (const orderId of due) kick(orderId);
      await Promise.allSettled(due.map((orderId) => running.get(orderId)));
      if (due.length < batchSize || attempted === before) return;
    }
  };

  const poll = () => {
    if (polling) return;
    polling = runDue()
      .catch((error: unknown) => log.error('could not read due payment updates from the store', { error }))
      .finally(() => (polling = undefined));
  };

  return {
    kick,
    async deliverNow(orderId) {
      kick(orderId);
      // A round already under way may have read the record before this call's change: wait for it
      // and for the one `kick` queued after it.
      while (running.has(orderId)) await running.get(orderId);
    },
    runDue,
    start() {
      stopped = false;
      if (timer) return;
      timer = setInterval(poll, options.pollMs ?? 1_000);
      (timer as { unref?: () => void }).unref?.();
      // On the next tick, so the companion's construction finishes first.
      firstRound = setTimeout(poll, 0);
    },
    async stop(waitMs = 5_000) {
      stopped = true;
      clearInterval(timer);
      clearTimeout(firstRound);
      timer = undefined;
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...running.values(), polling]),
        new Promise((resolve) => {
          waited = setTimeout(resolve, waitMs);
        }),
      ]);
      clearTimeout(waited);
    },
  };
}
