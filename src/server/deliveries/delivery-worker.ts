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
 */
import type { Logger } from '../log.js';
import { deliveryHeads, reportedBy, type CheckoutRecord, type DeliveryAttempt, type DeliveryRecord, type DeliverySink, type SettledDelivery } from '../model/records.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { randomId } from '../tokens.js';
import { deliveryOutcome, type MetricsRecorder } from '../model/metrics-recorder.js';

/** What a sink answers: ok, or why not (an HTTP status when there was one). */
export type DeliveryResult = { ok: true; status?: number } | { ok: false; status?: number; error: string };

export type DeliverFunction = (delivery: DeliveryRecord) => Promise<DeliveryResult>;

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
  metrics?: MetricsRecorder;
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

const defaultDelays = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000];
const keptAttempts = 20;
/** A payment has a handful of transitions: the last ten cover every one a merchant may ask again. */
const keptSettled = 10;

function settle(delivery: DeliveryRecord, delivered: boolean, at: number): SettledDelivery {
  // The stored delivery (with the attempts counted before this one): its update is what is resent.
  return { ...delivery, delivered, settledAt: at };
}

export function createDeliveryWorker(options: DeliveryOptions): DeliveryWorker {
  const { store, log, now } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const delays = options.retryDelaysMs?.length ? options.retryDelaysMs : defaultDelays;
  const giveUpAfterMs = options.giveUpAfterMs ?? 72 * 3600_000;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let firstRound: ReturnType<typeof setTimeout> | undefined;
  let polling: Promise<void> | undefined;

  const deliverOne = async (delivery: DeliveryRecord): Promise<DeliveryResult> => {
    const sink = options.sinks[delivery.sink];
    if (!sink) return { ok: false, error: `no ${delivery.sink} sink is configured` };
    let timeout: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        sink(delivery),
        new Promise<DeliveryResult>((resolve) => {
          timeout = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
        }),
      ]);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    } finally {
      clearTimeout(timeout);
    }
  };

  const record = async (orderId: string, delivery: DeliveryRecord, result: DeliveryResult, durationMs: number) => {
    const at = now();
    const attempt: DeliveryAttempt = {
      deliveryId: delivery.id,
      sink: delivery.sink,
      at,
      ok: result.ok,
      ...(result.status !== undefined ? { status: result.status } : {}),
      ...(!result.ok ? { error: result.error.slice(0, 300) } : {}),
      durationMs,
    };
    const attempts = delivery.attempts + 1;
    const givingUp = !result.ok && at - (delivery.requeuedAt ?? delivery.createdAt) >= giveUpAfterMs;
    options.metrics?.deliveryAttempted(delivery.sink, deliveryOutcome(result, givingUp));
    if (!result.ok) {
      const log_ = givingUp ? log.error : log.warn;
      log_(givingUp ? 'payment update not delivered: gave up' : 'payment update not delivered: will retry', {
        orderId,
        sink: delivery.sink,
        ...reportedBy(delivery),
        attempts,
        error: attempt.error,
      });
    }
    await updateCheckoutRecord(store, orderId, (current) => {
      const index = (current.deliveries ?? []).findIndex((item) => item.id === delivery.id && item.sink === delivery.sink);
      if (index < 0) return null;
      const deliveries = [...current.deliveries];
      const settled = result.ok || givingUp ? [settle(deliveries.splice(index, 1)[0]!, result.ok, at)] : [];
      if (settled.length === 0) deliveries[index] = { ...delivery, attempts, nextAttemptAt: at + delays[Math.min(attempts - 1, delays.length - 1)]! };
      return {
        ...current,
        deliveries,
        deliveryLog: [...(current.deliveryLog ?? []), attempt].slice(-keptAttempts),
        settledDeliveries: [...(current.settledDeliveries ?? []), ...settled].slice(-keptSettled),
      };
    });
  };

  const dueHeads = (checkout: CheckoutRecord): DeliveryRecord[] => deliveryHeads(checkout).filter((head) => head.nextAttemptAt <= now());

  const deliverOrder = async (orderId: string) => {
    const owner = randomId(12);
    // The lease outlives one delivery's timeout, so a live holder is never overtaken.
    if (!(await store.claimLock(`deliver:${orderId}`, owner, timeoutMs * 3))) return;
    try {
      for (let round = 0; round < 100; round++) {
        const checkout = await store.getByOrderId(orderId);
        const heads = checkout ? dueHeads(checkout) : [];
        if (heads.length === 0) return;
        // Sinks are independent: a merchant endpoint that is down does not hold up the callback.
        attempted += heads.length;
        await Promise.all(
          heads.map(async (delivery) => {
            const started = performance.now();
            const result = await deliverOne(delivery);
            await record(orderId, delivery, result, Math.round(performance.now() - started));
          }),
        );
      }
    } finally {
      await store.releaseLock(`deliver:${orderId}`, owner);
    }
  };

  const kick = (orderId: string) => {
    if (running.has(orderId)) {
      again.add(orderId);
      return;
    }
    const work = deliverOrder(orderId)
      .catch((error: unknown) => log.error('payment update delivery failed; it stays queued', { orderId, error }))
      .finally(() => {
        running.delete(orderId);
        if (again.delete(orderId)) kick(orderId);
      });
    running.set(orderId, work);
  };

  let attempted = 0;
  const runDue = async () => {
    // A full batch that got somewhere means more may be due: go on, so a backlog (the merchant's
    // endpoint back after an outage) drains at the endpoint's speed, not 200 per poll (bench/service.ts).
    // A batch that attempted nothing (locked by another process) waits for the next poll.
    for (let batch = 0; batch < 50; batch++) {
      const before = attempted;
      const due = await store.dueDeliveries(now(), 200);
      for (const orderId of due) kick(orderId);
      await Promise.allSettled(due.map((orderId) => running.get(orderId)));
      if (due.length < 200 || attempted === before) return;
    }
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
      if (timer) return;
      const poll = () => {
        if (polling) return;
        polling = runDue()
          .catch((error: unknown) => log.error('could not read due payment updates from the store', { error }))
          .finally(() => (polling = undefined));
      };
      timer = setInterval(poll, options.pollMs ?? 1_000);
      (timer as { unref?: () => void }).unref?.();
      // On the next tick, so the companion's construction finishes first.
      firstRound = setTimeout(poll, 0);
    },
    async stop(waitMs = 5_000) {
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
