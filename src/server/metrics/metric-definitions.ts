/**
 * Part `metrics/` (docs/architecture.md, docs/metrics.md): `GET <publicUrl>/metrics` in the
 * Prometheus text format. May import every part below the composition root: it reads the store the
 * way the console does (console/overview-charts.ts, payments/payments-list.ts) and checks the
 * server secret the way the server API does.
 *
 * The registry and every metric's definition, in one place. prom-client 15.1.3 (pinned): the
 * Prometheus text format, the Node defaults (event loop lag, heap, GC) and nothing to compile;
 * about 5 MB installed with its three dependencies, against 19 MB for OpenTelemetry's metrics SDK
 * with its Prometheus exporter (measured here), which would add a second metrics model for the one
 * output we serve. One registry per companion (never prom-client's global one), so two companions
 * in one process, or a shop that uses prom-client itself, never mix their series.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { deliveryOutcomes, notificationResults } from '../model/metrics-recorder.js';

export type MetricDefinitions = ReturnType<typeof defineMetrics>;

export function defineMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const definitions = {
    registry,
    // Counters: this process's own events; add them up over processes (sum).
    payments: new Counter({
      name: 'momo_payments_total',
      help: 'Payment attempts sent to the service (state="started") and payments finished (state="completed" or "failed"), by operator, counted by the process that made the change.',
      labelNames: ['state', 'operator'] as const,
      registers,
    }),
    notifications: new Counter({
      name: 'momo_notifications_received_total',
      help: 'Service notifications received by this process, by result: applied, ignored (changed nothing), duplicate, refused_signature, refused_timestamp, refused_body, too_large, unavailable (the store could not keep it: answered 503).',
      labelNames: ['result'] as const,
      registers,
    }),
    deliveries: new Counter({
      name: 'momo_merchant_deliveries_total',
      help: 'Attempts to tell the merchant of a change, by sink (webhook: the merchant endpoint; callback: onPaymentUpdate) and result: delivered, refused (a non-2xx answer), failed (no answer), gave_up.',
      labelNames: ['sink', 'result'] as const,
      registers,
    }),
    upstream: new Histogram({
      name: 'momo_upstream_request_duration_seconds',
      help: 'Calls to the payment service by route (pay-in, corridors, preview...) and answer (the HTTP status, or timeout, network, aborted), with their duration.',
      labelNames: ['route', 'answer'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    // Gauges of this process.
    streams: new Gauge({ name: 'momo_status_streams_open', help: 'Status streams (server-sent events) this process holds open to payers\' pages.', registers }),
    // Gauges read from the store at each scrape: the same in every process on one store, so read
    // them with max() over instances, never sum() (docs/metrics.md, "Several processes").
    storeUp: new Gauge({ name: 'momo_store_read_ok', help: 'Store-wide: 1 when this scrape could read the store-wide gauges below, 0 when the store did not answer (they are then left out).', registers }),
    inboxPending: new Gauge({ name: 'momo_inbox_unprocessed', help: 'Store-wide: service notifications kept in the inbox but not yet applied (counted up to 1,000).', registers }),
    inboxOldest: new Gauge({ name: 'momo_inbox_oldest_seconds', help: 'Store-wide: age of the oldest notification not yet applied (0 when none).', registers }),
    deliveryBacklog: new Gauge({ name: 'momo_merchant_delivery_backlog', help: 'Store-wide: orders with a change not yet acknowledged by the sink (counted up to 1,000).', labelNames: ['sink'] as const, registers }),
    deliveryOldest: new Gauge({ name: 'momo_merchant_delivery_backlog_seconds', help: 'Store-wide: age of the oldest change not yet acknowledged by the sink, from the change (or its redelivery request); 0 when none.', labelNames: ['sink'] as const, registers }),
    open: new Gauge({ name: 'momo_payments_open', help: 'Store-wide: payments still waiting for the service\'s word (counted up to 1,000).', registers }),
    openOldest: new Gauge({ name: 'momo_payments_open_oldest_seconds', help: 'Store-wide: time since the last change of the oldest open payment (0 when none).', registers }),
    stuck: new Gauge({ name: 'momo_payments_stuck', help: 'Store-wide: what needs support, as the console lists it: kind="payment" (open past staleAfterMinutes, or a notification refused for its time), "held" (amount or number differs), "refund" (no outcome).', labelNames: ['kind'] as const, registers }),
    operatorRatio: new Gauge({ name: 'momo_operator_completion_ratio', help: 'Store-wide: completed / finished payments of each operator, window="1h" (the last hour) or "usual" (the week before it); absent when none finished.', labelNames: ['operator', 'window'] as const, registers }),
    operatorFinished: new Gauge({ name: 'momo_operator_finished_payments', help: 'Store-wide: finished payments (completed or failed) of each operator in the window the ratio reads.', labelNames: ['operator', 'window'] as const, registers }),
  };
  // Series that exist from the start at 0, so `increase()` over them says "none" rather than nothing
  // (an alert on "no notification for 10 minutes" must fire on a process that never received one).
  for (const result of notificationResults) definitions.notifications.inc({ result }, 0);
  for (const sink of ['webhook', 'callback']) for (const result of deliveryOutcomes) definitions.deliveries.inc({ sink, result }, 0);
  return definitions;
}
