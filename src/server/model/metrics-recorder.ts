/**
 * What the domain tells the metrics (issue 34, docs/metrics.md), as a small interface of the
 * foundation (model/, passed like the logger): the parts that pay, receive, deliver and call the service say what
 * happened in one line each, and never import a metrics library. `metrics/` implements it with
 * prom-client; without metrics (no `metricsToken` nor `serverSecret`), {@link noMetrics} costs nothing.
 *
 * Every count here is an event that happens in exactly one process (the compare-and-set of a
 * transition, the lease of a delivery, the socket a notification came on): summed over processes,
 * nothing is counted twice.
 */
import type { DeliverySink, PaymentRecord } from './records.js';

/** What became of a service notification that reached this companion. */
export type NotificationResult =
  | 'applied'
  | 'ignored'
  | 'duplicate'
  | 'refused_signature'
  | 'refused_timestamp'
  | 'refused_body'
  | 'too_large'
  | 'unavailable';

export const notificationResults: readonly NotificationResult[] = ['applied', 'ignored', 'duplicate', 'refused_signature', 'refused_timestamp', 'refused_body', 'too_large', 'unavailable'];

/** One attempt to tell the merchant: acknowledged, answered non-2xx, no answer (timeout, network, a throw), or the last try before giving up. */
export type DeliveryOutcome = 'delivered' | 'refused' | 'failed' | 'gave_up';

export const deliveryOutcomes: readonly DeliveryOutcome[] = ['delivered', 'refused', 'failed', 'gave_up'];

export interface MetricsRecorder {
  /** A pay-in attempt was sent to the service (one per attempt: a re-post of the same attempt is not another). */
  paymentStarted(operator: string): void;
  /** A visible change of a payment: counted when it enters `completed` or `failed`. */
  paymentChanged(before: PaymentRecord | null | undefined, after: PaymentRecord | null | undefined): void;
  notificationReceived(result: NotificationResult): void;
  deliveryAttempted(sink: DeliverySink, outcome: DeliveryOutcome): void;
  /** One HTTP call to the service: its endpoint (`pay-in`, `corridors`...), the status or why none came, how long. */
  upstreamCall(route: string, answer: string, seconds: number): void;
}

export const noMetrics: MetricsRecorder = {
  paymentStarted() {},
  paymentChanged() {},
  notificationReceived() {},
  deliveryAttempted() {},
  upstreamCall() {},
};

/** The operator a payment is counted under: the console's rule (console/overview-charts.ts). */
export function operatorLabel(payment: Pick<PaymentRecord, 'operator'>): string {
  return payment.operator?.name ?? payment.operator?.code ?? '?';
}

/** A step's outcome in the domain's words (notifications/notification-types.ts) as a result label. */
export function notificationResult(outcome: { kind: string; reason?: string }): NotificationResult {
  if (outcome.kind === 'refused') return refusalResult(outcome.reason ?? '');
  if (outcome.kind === 'too-large') return 'too_large';
  if (outcome.kind === 'applied' || outcome.kind === 'ignored' || outcome.kind === 'duplicate' || outcome.kind === 'unavailable') return outcome.kind;
  return 'refused_body';
}

/** A verifier's refusal reason (contract/webhook-signature/errors.ts) as a result label. */
function refusalResult(reason: string): NotificationResult {
  if (reason === 'SIGNATURE_MISMATCH' || reason === 'NO_SECRETS' || reason === 'MISSING_SIGNATURE' || reason === 'MALFORMED_SIGNATURE') return 'refused_signature';
  if (reason === 'TIMESTAMP_TOO_OLD' || reason === 'TIMESTAMP_IN_FUTURE') return 'refused_timestamp';
  if (reason === 'TOO_LARGE') return 'too_large';
  return 'refused_body';
}

/** A sink's answer as a delivery outcome. */
export function deliveryOutcome(result: { ok: boolean; status?: number }, givingUp: boolean): DeliveryOutcome {
  if (result.ok) return 'delivered';
  if (givingUp) return 'gave_up';
  return result.status !== undefined ? 'refused' : 'failed';
}
