/**
 * `<momo-console-endpoint>`: the merchant endpoint's last deliveries (status, time, duration) and a
 * button that sends it a signed test notification and says how it answered.
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsoleEndpointHealth, ConsolePingResult, ConsoleSession } from '../contract/console.js';
import type { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';
import { timeText } from './format.js';

export class ConsoleEndpointSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @property({ attribute: false }) session!: ConsoleSession;
  @state() private health: ConsoleEndpointHealth | null = null;
  @state() private problem: string | null = null;
  @state() private outcome = '';
  @state() private busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.health = await this.client.get<ConsoleEndpointHealth>('/api/endpoint');
    } catch (error) {
      this.problem = (error as Error).message;
    }
  }

  private async test(): Promise<void> {
    this.busy = true;
    try {
      const result = await this.client.post<ConsolePingResult>('/api/endpoint/test');
      this.outcome = this.text.endpoint.tested(result.ok, result.status === null ? (result.error ?? '') : `HTTP ${result.status}`, result.durationMs);
    } catch (error) {
      this.outcome = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  override render(): TemplateResult {
    const text = this.text.endpoint;
    if (this.problem) return html`<p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    const health = this.health;
    if (!health) return html`<p role="status">${this.text.loading}</p>`;
    return html`
      <h2>${text.heading}</h2>
      <section class="card" aria-labelledby="url">
        <h3 id="url">${text.url}</h3>
        ${health.url ? html`<p><code>${health.url}</code></p>` : html`<p>${text.noUrl}</p>`}
        ${this.session.merchantEndpoint ? html`<button type="button" ?disabled=${this.busy} @click=${this.test}>${text.test}</button>` : nothing}
        <p role="status" aria-live="polite">${this.outcome}</p>
      </section>
      <section class="card" aria-labelledby="last">
        <h3 id="last">${text.last}</h3>
        ${health.deliveries.length === 0
          ? html`<p>${text.none}</p>`
          : html`<div class="scroll">
              <table>
                <thead>
                  <tr><th scope="col">${text.time}</th><th scope="col">${text.order}</th><th scope="col">${text.result}</th></tr>
                </thead>
                <tbody>
                  ${health.deliveries.map(
                    (delivery) => html`<tr>
                      <td><time datetime=${delivery.at}>${timeText(delivery.at, this.text.locale)}</time></td>
                      <td><a href="#/payments/${encodeURIComponent(delivery.orderId)}">${delivery.orderId}</a></td>
                      <td class=${delivery.ok ? 'good' : 'bad'}>
                        ${this.text.payment.status(delivery.status)}${delivery.durationMs === null ? '' : `, ${this.text.payment.duration(delivery.durationMs)}`}
                        ${delivery.error ? html`<span class="muted">${delivery.error}</span>` : nothing}
                      </td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`}
      </section>
    `;
  }
}
