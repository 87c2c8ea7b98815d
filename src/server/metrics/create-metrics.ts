/**
 * A companion's metrics: the recorder its parts are given, and the `/metrics` route. Off (the
 * no-op recorder, and a 404 that says how to turn them on) when neither `metricsToken` nor
 * `serverSecret` is set: nothing is counted that no one may read.
 */
import { CompanionConfigError } from '../config-error.js';
import type { Logger } from '../log.js';
import { noMetrics, type MetricsRecorder } from '../model/metrics-recorder.js';
import type { CheckoutStore } from '../stores/store.js';
import { defineMetrics, type MetricDefinitions } from './metric-definitions.js';
import { createMetricsRoute, type MetricsRoute } from './metrics-route.js';
import { prometheusRecorder } from './prometheus-recorder.js';
import { readStoreGauges, type StoreGauges } from './store-gauges.js';

export const minMetricsTokenLength = 32;

export interface CompanionMetrics {
  recorder: MetricsRecorder;
  route: MetricsRoute;
}

export interface CompanionMetricsOptions {
  metricsToken?: string | undefined;
  serverSecret?: string | undefined;
  mountPath: string;
  /** The store-wide gauges are read through it (the server API's guarded store: a deadline, not a hang). */
  store: CheckoutStore;
  now: () => number;
  staleAfterMinutes: number;
  openStreams: () => number;
  log: Logger;
  /** At most one read of the store-wide gauges in this long (companion clock); scrapes in between get the last one. */
  storeGaugesEveryMs?: number | undefined;
}

/**
 * The store-wide gauges read the week's finished payments, as the console's overview does: with
 * 10,000 payments that took 0.25 s on the memory store and 1.3 s on the file store here (whose
 * driver blocks the event loop meanwhile). So they are read at most every 30 s by default, however
 * often Prometheus scrapes, and two scrapes at once share one read.
 */
export const defaultStoreGaugesEveryMs = 30_000;

export function createCompanionMetrics(options: CompanionMetricsOptions): CompanionMetrics {
  if (options.metricsToken !== undefined && (typeof options.metricsToken !== 'string' || options.metricsToken.length < minMetricsTokenLength)) {
    throw new CompanionConfigError(`metricsToken (MOMO_METRICS_TOKEN) must be at least ${minMetricsTokenLength} characters. Generate one with: openssl rand -hex 32`);
  }
  // RFC 6750 §2.1: a Bearer token has no whitespace, so a scrape could never present this one.
  if (options.metricsToken !== undefined && /\s/.test(options.metricsToken)) {
    throw new CompanionConfigError('metricsToken (MOMO_METRICS_TOKEN) contains whitespace, which no Authorization: Bearer header can carry: generate one with openssl rand -hex 32.');
  }
  const tokens = [options.metricsToken, options.serverSecret].filter((token): token is string => typeof token === 'string' && token.length > 0);
  if (tokens.length === 0) {
    return { recorder: noMetrics, route: createMetricsRoute({ mountPath: options.mountPath, tokens, log: options.log, scrape: () => Promise.reject(new Error('metrics are off')) }) };
  }
  const metrics = defineMetrics();
  const everyMs = options.storeGaugesEveryMs ?? defaultStoreGaugesEveryMs;
  let lastRead: { at: number; done: Promise<void> } | undefined;
  const readStore = async () => {
    try {
      setStoreGauges(metrics, await readStoreGauges(options.store, options.now(), options.staleAfterMinutes));
      metrics.storeUp.set(1);
    } catch (error) {
      // The process's own counters are still worth a scrape; the store's numbers are left out, not stale.
      options.log.warn('metrics: the store-wide gauges could not be read', { error });
      clearStoreGauges(metrics);
      metrics.storeUp.set(0);
    }
  };
  const scrape = async () => {
    metrics.streams.set(options.openStreams());
    const now = options.now();
    if (!lastRead || now - lastRead.at >= everyMs || now < lastRead.at) lastRead = { at: now, done: readStore() };
    await lastRead.done;
    return { text: await metrics.registry.metrics(), contentType: metrics.registry.contentType };
  };
  return { recorder: prometheusRecorder(metrics), route: createMetricsRoute({ mountPath: options.mountPath, tokens, log: options.log, scrape }) };
}

function clearStoreGauges(metrics: MetricDefinitions): void {
  for (const gauge of [metrics.inboxPending, metrics.inboxOldest, metrics.deliveryBacklog, metrics.deliveryOldest, metrics.open, metrics.openOldest, metrics.stuck, metrics.operatorRatio, metrics.operatorFinished]) gauge.reset();
}

function setStoreGauges(metrics: MetricDefinitions, gauges: StoreGauges): void {
  clearStoreGauges(metrics);
  metrics.inboxPending.set(gauges.inbox.pending);
  metrics.inboxOldest.set(gauges.inbox.oldestSeconds);
  for (const [sink, owed] of Object.entries(gauges.deliveries)) {
    metrics.deliveryBacklog.set({ sink }, owed.backlog);
    metrics.deliveryOldest.set({ sink }, owed.oldestSeconds);
  }
  metrics.open.set(gauges.open.count);
  metrics.openOldest.set(gauges.open.oldestSeconds);
  for (const [kind, count] of Object.entries(gauges.stuck)) metrics.stuck.set({ kind }, count);
  // An operator that left the window leaves the scrape (reset above), rather than keep its last value.
  for (const { operator, lastHour, usual } of gauges.operators) {
    for (const [window, rate] of [['1h', lastHour], ['usual', usual]] as const) {
      metrics.operatorFinished.set({ operator, window }, rate.finished);
      if (rate.rate !== null) metrics.operatorRatio.set({ operator, window }, rate.rate);
    }
  }
}
