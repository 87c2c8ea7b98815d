/** The domain's {@link MetricsRecorder} on prom-client's counters (metric-definitions.ts). */
import { finalPaymentStates } from '../../contract/companion.js';
import { operatorLabel, type MetricsRecorder } from '../model/metrics-recorder.js';
import type { MetricDefinitions } from './metric-definitions.js';

export function prometheusRecorder(metrics: MetricDefinitions): MetricsRecorder {
  return {
    paymentStarted(operator) {
      metrics.payments.inc({ state: 'started', operator });
    },
    paymentChanged(before, after) {
      // Counted once, by the process whose compare-and-set moved it into a final state.
      if (!after || !finalPaymentStates.includes(after.state)) return;
      if (before && before.state === after.state && before.attempt === after.attempt) return;
      metrics.payments.inc({ state: after.state, operator: operatorLabel(after) });
    },
    notificationReceived(result) {
      metrics.notifications.inc({ result });
    },
    deliveryAttempted(sink, result) {
      metrics.deliveries.inc({ sink, result });
    },
    upstreamCall(route, answer, seconds) {
      metrics.upstream.observe({ route, answer }, seconds);
    },
  };
}
