/**
 * What metrics cost the webhook route (issue 34): the same load as bench/companion.ts (verified
 * notifications, 50 keep-alive connections, memory store, the companion in a child process), with
 * metrics off (no metrics token nor server secret: the no-op recorder) and on (`metricsToken`: every
 * notification, transition and delivery counted by prom-client), in alternating rounds of one run so
 * that the machine's load falls on both alike. Then the time of one scrape of `/metrics` on the
 * process that took the load (its store holds every payment of the round), and what the recorder
 * itself costs per notification, in this process (no HTTP, no load: the figure the rounds blur).
 *
 * Run alone: `npm run bench -- metrics`.
 */
import { defineMetrics } from '../src/server/metrics/metric-definitions.js';
import { prometheusRecorder } from '../src/server/metrics/prometheus-recorder.js';
import { measureThroughput, startServerProcess, type Figure } from './companion.js';

const ROUNDS = 5;
const COUNT = 10_000;
const token = 'bench-metrics-token-0123456789abcdef0123';

export async function benchMetricsCost(): Promise<Figure[]> {
  const rates: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const p99s: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const scrapes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const server = await startServerProcess('server', { MOMO_STORE: 'memory', ...(mode === 'on' ? { MOMO_BENCH_METRICS_TOKEN: token } : {}) });
      try {
        const [rate, , p99] = await measureThroughput(server, `memory store, metrics ${mode}`, COUNT);
        rates[mode].push(rate!.value);
        p99s[mode].push(p99!.value);
        if (mode === 'on') scrapes.push(await timeScrape(server.port));
      } finally {
        server.stop();
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return [
    { name: `webhook route, metrics off: verified notifications (median of ${ROUNDS})`, value: median(rates.off), unit: 'notifications/s' },
    { name: `webhook route, metrics on: verified notifications (median of ${ROUNDS})`, value: median(rates.on), unit: 'notifications/s' },
    { name: 'webhook route: metrics on / off', value: median(rates.on) / median(rates.off), unit: 'x' },
    // Each round's figure: on a shared machine the spread between rounds says how far to trust the ratio.
    { name: 'webhook route, metrics off: every round', value: rates.off.length, unit: `rounds: ${rates.off.join(', ')} /s` },
    { name: 'webhook route, metrics on: every round', value: rates.on.length, unit: `rounds: ${rates.on.join(', ')} /s` },
    { name: 'webhook route, metrics off / on: latency p99', value: median(p99s.off), unit: `ms / ${median(p99s.on).toFixed(1)} ms` },
    { name: 'recorder calls per notification (received, finished, delivered), in process', value: recorderMicroseconds(), unit: 'µs' },
    { name: `one scrape of /metrics after a round (${COUNT.toLocaleString('en')} payments in the store)`, value: median(scrapes), unit: 'ms' },
  ];
}

/** The three calls a notification makes on prom-client's counters, timed a million times. */
function recorderMicroseconds(): number {
  const recorder = prometheusRecorder(defineMetrics());
  const before = { state: 'pending', attempt: 1, operator: { code: 'mtn', name: 'MTN MoMo', logoUrl: null, instructions: null } } as const;
  const after = { ...before, state: 'completed' } as const;
  const count = 1_000_000;
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    recorder.notificationReceived('applied');
    recorder.paymentChanged(before as never, after as never);
    recorder.deliveryAttempted('callback', 'delivered');
  }
  return ((performance.now() - started) * 1000) / count;
}

async function timeScrape(port: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/momo/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('momo_notifications_received_total')) throw new Error(`scrape answered ${response.status}`);
  return performance.now() - started;
}
