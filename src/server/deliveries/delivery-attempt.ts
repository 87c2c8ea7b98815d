/**
 * One attempt of one delivery: the sink called under a timeout (whatever it throws becomes a failed
 * result), then the attempt written into the checkout record: the delivery settled (delivered, or
 * given up), or rescheduled on the backoff (delivery-backoff.ts), with the attempt in the record's
 * delivery log. Apart from the worker (delivery-worker.ts), which decides what is due and who
 * delivers it; this is what happens to one delivery.
 */
import type { Logger } from '../log.js';
import { reportedBy, type CheckoutRecord, type DeliveryAttempt, type DeliveryRecord, type DeliverySink, type SettledDelivery } from '../model/records.js';
import { updateCheckoutRecord, type CheckoutStore } from '../stores/store.js';
import { retryDelay } from './delivery-backoff.js';
import { deliveryOutcome, type MetricsRecorder } from '../model/metrics-recorder.js';

/** What a sink answers: ok, or why not (an HTTP status when there was one). */
export type DeliveryResult = { ok: true; status?: number } | { ok: false; status?: number; error: string };

export type DeliverFunction = (delivery: DeliveryRecord) => Promise<DeliveryResult>;

/** The worker's settings, defaults applied, that an attempt reads. */
export interface DeliveryDeps {
  store: CheckoutStore;
  log: Logger;
  now: () => number;
  sinks: Partial<Record<DeliverySink, DeliverFunction>>;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  giveUpAfterMs: number;
  /** Whether the delivery's sink still takes its type (delivery-worker.ts `DeliveryOptions.subscribed`). */
  subscribed: (delivery: DeliveryRecord) => boolean;
  metrics?: MetricsRecorder;
}

const keptAttempts = 20;
/** A payment has a handful of transitions: the last ten cover every one a merchant may ask again. */
const keptSettled = 10;

/** Calls the delivery's sink, and resolves with what it answered, within the timeout. Never rejects. */
export async function callSink(deps: DeliveryDeps, delivery: DeliveryRecord): Promise<DeliveryResult> {
  const sink = deps.sinks[delivery.sink];
  if (!sink) return { ok: false, error: `no ${delivery.sink} sink is configured` };
  let timeout: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      sink(delivery),
      new Promise<DeliveryResult>((resolve) => {
        timeout = setTimeout(() => resolve({ ok: false, error: `no answer within ${deps.timeoutMs} ms` }), deps.timeoutMs);
      }),
    ]);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    clearTimeout(timeout);
  }
}

function settle(delivery: DeliveryRecord, delivered: boolean, at: number): SettledDelivery {
  // The stored delivery (with the attempts counted before this one): its update is what is resent.
  return { ...delivery, delivered, settledAt: at };
}

/**
 * Writes one attempt's outcome into the order's record (a failure is logged: a warning, or an error
 * when given up). Resolves with the record as this write left it (as it was read, when the delivery
 * had left it meanwhile; undefined when the record is gone): what the worker's next round starts from.
 */
export async function recordAttempt(deps: DeliveryDeps, orderId: string, delivery: DeliveryRecord, result: DeliveryResult, durationMs: number, justRead?: CheckoutRecord): Promise<CheckoutRecord | undefined> {
  const { log } = deps;
  const at = deps.now();
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
  const givingUp = !result.ok && at - (delivery.requeuedAt ?? delivery.createdAt) >= deps.giveUpAfterMs;
  deps.metrics?.deliveryAttempted(delivery.sink, deliveryOutcome(result, givingUp));
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
  const { record } = await updateCheckoutRecord(deps.store, orderId, (current) => {
    const index = (current.deliveries ?? []).findIndex((item) => item.id === delivery.id && item.sink === delivery.sink);
    if (index < 0) return null;
    const deliveries = [...current.deliveries];
    const settled = result.ok || givingUp ? [settle(deliveries.splice(index, 1)[0]!, result.ok, at)] : [];
    if (settled.length === 0) deliveries[index] = { ...delivery, attempts, nextAttemptAt: at + retryDelay(deps.retryDelaysMs, attempts) };
    return {
      ...current,
      deliveries,
      deliveryLog: [...(current.deliveryLog ?? []), attempt].slice(-keptAttempts),
      settledDeliveries: [...(current.settledDeliveries ?? []), ...settled].slice(-keptSettled),
    };
  }, justRead);
  return record;
}

/**
 * One attempt of one delivery: the sink called, then its outcome recorded with the time it took.
 * `justRead`: the record the worker read this delivery from, written against unless it changed meanwhile.
 * Resolves with the record as the outcome's write left it ({@link recordAttempt}).
 */
export async function attemptDelivery(deps: DeliveryDeps, orderId: string, delivery: DeliveryRecord, justRead?: CheckoutRecord): Promise<CheckoutRecord | undefined> {
  const started = performance.now();
  const result = await callSink(deps, delivery);
  return recordAttempt(deps, orderId, delivery, result, Math.round(performance.now() - started), justRead);
}

/**
 * Takes deliveries of a type their sink no longer subscribes to off the order's queue, unsent: the
 * merchant narrowed `MOMO_MERCHANT_EVENTS` after they were queued. Logged (info) once each; they are
 * not attempts, so neither the delivery log nor the metrics count them.
 */
export async function dropUnsubscribed(deps: DeliveryDeps, orderId: string, deliveries: readonly DeliveryRecord[]): Promise<void> {
  const dropped = new Set(deliveries.map((delivery) => `${delivery.sink}\0${delivery.id}`));
  const { record } = await updateCheckoutRecord(deps.store, orderId, (current) => {
    const kept = (current.deliveries ?? []).filter((delivery) => !dropped.has(`${delivery.sink}\0${delivery.id}`));
    return kept.length === (current.deliveries ?? []).length ? null : { ...current, deliveries: kept };
  });
  for (const delivery of deliveries) {
    deps.log.info('queued notification not sent: its type is no longer subscribed (MOMO_MERCHANT_EVENTS)', { orderId, sink: delivery.sink, webhookId: delivery.id, ...reportedBy(delivery) });
  }
}
