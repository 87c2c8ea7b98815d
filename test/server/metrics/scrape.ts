/** Scrapes a companion's `/metrics` over HTTP, as Prometheus does, and reads the text. */
import { parsePrometheusText, type Scrape } from '../../support/prometheus-text.js';

export const metricsToken = 'metrics-token-for-tests-0123456789abcdef';

export async function scrape(base: string, token = metricsToken): Promise<Scrape & { text: string }> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}: ${text}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) throw new Error(`scrape content type ${response.headers.get('content-type')}`);
  return { ...parsePrometheusText(text), text };
}

/** Waits until `check` passes (the work after a webhook's answer is in the background). */
export async function eventually(check: () => Promise<void> | void, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
