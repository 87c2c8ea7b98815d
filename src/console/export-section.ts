/**
 * `<momo-console-export>`: the accountant's export on the payments page: two days (UTC, both
 * included) and two download links to the console's `api/export`, the server API's answer behind
 * the console's session: the xlsx workbook (with its totals) and the CSV. Plain links, so the
 * browser downloads the stream as it comes, with the file name the server gives it.
 */
import { LitElement, html, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';

const dayMs = 86_400_000;
/** `2026-11-27`: a day as `<input type="date">` writes it, in UTC. */
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

export class ConsoleExportSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  // This month so far, as the server's default window.
  @state() private from = `${day(Date.now()).slice(0, 8)}01`;
  @state() private through = day(Date.now());

  /** The download's URL, or null when the days do not make a window. */
  private href(format: 'csv' | 'xlsx'): string | null {
    const from = Date.parse(`${this.from}T00:00:00Z`);
    const through = Date.parse(`${this.through}T00:00:00Z`);
    if (!Number.isFinite(from) || !Number.isFinite(through) || through < from) return null;
    // The last day is included: the window ends at the next midnight (UTC), excluded.
    return `${this.client.base}/api/export?${new URLSearchParams({ from: this.from, to: day(through + dayMs), format })}`;
  }

  override render(): TemplateResult {
    const text = this.text.exportPayments;
    const [xlsx, csv] = [this.href('xlsx'), this.href('csv')];
    return html`
      <section class="card" aria-labelledby="export-heading">
        <h3 id="export-heading">${text.heading}</h3>
        <div class="row">
          <div class="field">
            <label for="export-from">${text.from}</label>
            <input id="export-from" type="date" .value=${this.from} max=${this.through} @input=${(event: Event) => (this.from = (event.target as HTMLInputElement).value)} />
          </div>
          <div class="field">
            <label for="export-through">${text.through}</label>
            <input id="export-through" type="date" .value=${this.through} min=${this.from} @input=${(event: Event) => (this.through = (event.target as HTMLInputElement).value)} />
          </div>
          ${xlsx && csv
            ? html`<a class="download" href=${xlsx} download>${text.downloadXlsx}</a> <a class="download" href=${csv} download>${text.download}</a>`
            : html`<p class="bad" role="alert">${text.badWindow}</p>`}
        </div>
        <p class="muted">${text.hint}</p>
      </section>
    `;
  }
}
