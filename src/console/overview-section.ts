/**
 * `<momo-console-overview>`: the pictures (payments per hour, completion rate per operator) and the
 * stuck payments, each with its transaction id and the sentence for the payment service's support,
 * copied in one click.
 */
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsoleOverview, ConsoleStaleItem } from '../contract/console.js';
import type { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';
import { amountText, plainText } from './format.js';
import { hourlyChart } from './hourly-chart.js';
import { operatorRatesTable } from './operator-rates.js';

export class ConsoleOverviewSection extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .chart {
        margin: 0;
      }
      .chart svg {
        width: 100%;
        height: auto;
        display: block;
      }
      .completed {
        fill: var(--momo-console-success, #146c2e);
        background: var(--momo-console-success, #146c2e);
      }
      .failed {
        fill: var(--momo-console-error, #b3261e);
        background: var(--momo-console-error, #b3261e);
      }
      .open {
        fill: #8a9490;
        background: #8a9490;
      }
      .axis {
        stroke: var(--momo-console-text, #1b1f1d);
      }
      .ticks {
        display: grid;
        grid-auto-flow: column;
        grid-auto-columns: 1fr;
        font-size: 0.875rem;
        font-variant-numeric: tabular-nums;
      }
      .tick {
        padding-inline-start: 2px;
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        list-style: none;
        padding: 0;
      }
      .swatch {
        display: inline-block;
        width: 0.9rem;
        height: 0.9rem;
        margin-inline-end: 0.3rem;
        vertical-align: middle;
      }
      svg.rate {
        /* Shrinks with its column: at 320 px the four columns fit, "Usual (last week)" included (issue 32). */
        width: 100%;
        max-width: 5rem;
        height: 0.7rem;
        display: block;
      }
      .operators {
        font-size: 0.875rem;
      }
      .operators th,
      .operators td {
        padding-inline: 0.25rem;
      }
      .rate-track {
        fill: #e3e7e5;
      }
      tr.below th,
      tr.below td {
        background: #fbe9e7;
      }
      .stale li {
        margin-bottom: 0.75rem;
      }
      code {
        overflow-wrap: anywhere;
      }
    `,
  ];

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @state() private overview: ConsoleOverview | null = null;
  @state() private problem: string | null = null;
  @state() private copied = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.client.get<ConsoleOverview>('/api/overview').then(
      (overview) => (this.overview = overview),
      (error: Error) => (this.problem = error.message),
    );
  }

  private async copy(value: string): Promise<void> {
    await navigator.clipboard.writeText(value);
    this.copied = this.text.overview.copied;
  }

  override render(): TemplateResult {
    const text = this.text.overview;
    if (this.problem) return html`<p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    const overview = this.overview;
    if (!overview) return html`<p role="status">${this.text.loading}</p>`;
    return html`
      <h2>${text.heading}</h2>
      ${overview.packageProblems?.length ? this.packageProblems(overview.packageProblems) : nothing}
      <section class="card" aria-label=${text.perHour}>${hourlyChart(overview.hours, this.text)}</section>
      <section class="card" aria-labelledby="operators">
        <h3 id="operators">${text.operators}</h3>
        ${operatorRatesTable(overview.operators, this.text, 'operators')}
      </section>
      <section class="card stale" aria-labelledby="stale">
        <h3 id="stale">${text.stale}</h3>
        <p>${text.staleIntro(overview.staleAfterMinutes)}</p>
        ${overview.stale.length === 0 ? html`<p>${text.noStale}</p>` : html`<ul>${overview.stale.map((item) => this.staleItem(item))}</ul>`}
        <p role="status" aria-live="polite">${this.copied}</p>
      </section>
    `;
  }

  /** First, and as an alert: a shop page that pins one of these files shows no checkout. */
  private packageProblems(problems: readonly string[]): TemplateResult {
    const text = this.text.overview;
    return html`<section class="card" role="alert" aria-labelledby="package-problems">
      <h3 id="package-problems" class="bad">${text.packageProblems}</h3>
      <ul>
        ${problems.map((problem) => html`<li>${plainText(problem)}</li>`)}
      </ul>
    </section>`;
  }

  private staleItem(item: ConsoleStaleItem): TemplateResult {
    const text = this.text.overview;
    return html`<li>
      <a href="#/payments/${encodeURIComponent(item.orderId)}">${plainText(item.orderId)}</a>,
      ${amountText(item.amount, item.currencyCode, this.text.locale)}, ${this.text.age(item.ageMinutes)}
      <div class="row">
        ${item.transactionId
          ? html`<code>${plainText(item.transactionId)}</code>
              <button type="button" class="secondary" aria-label=${text.copyTransaction(item.orderId)} @click=${() => this.copy(item.transactionId!)}>${text.copy}</button>`
          : nothing}
      </div>
      <p>${plainText(item.action)}</p>
      <button type="button" class="secondary" aria-label=${text.copySentence(item.orderId)} @click=${() => this.copy(item.action)}>${text.copy}</button>
    </li>`;
  }
}
