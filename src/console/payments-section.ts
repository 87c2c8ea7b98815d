/**
 * `<momo-console-payments>`: the payments list, filtered by state and age or found by order id; the
 * filter is a plain GET form whose values go to the URL's hash, so a filtered list can be bookmarked.
 * Below it, the accountant's export (`<momo-console-export>`, export-section.ts).
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { consolePaymentStates, type ConsolePaymentList, type ConsolePaymentRow, type ConsoleUnpaidCheckout } from '../contract/console.js';
import type { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';
import { amountText, plainText, timeText } from './format.js';

const ageChoices = [1, 24, 168];

export class ConsolePaymentsSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @property({ attribute: false }) params = new URLSearchParams();
  @state() private payments: ConsolePaymentRow[] | null = null;
  @state() private unpaid: ConsoleUnpaidCheckout | null = null;
  @state() private problem: string | null = null;
  // null until the first load: an empty query ('') is a query too.
  private loaded: string | null = null;

  override willUpdate(): void {
    const query = this.params.toString();
    if (query === this.loaded) return;
    this.loaded = query;
    this.payments = null;
    this.unpaid = null;
    this.problem = null;
    this.client.get<ConsolePaymentList>(`/api/payments?${query}`).then(
      (body) => {
        this.unpaid = body.unpaidCheckout ?? null;
        this.payments = body.payments;
      },
      (error: Error) => (this.problem = error.message),
    );
  }

  private filter(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const params = new URLSearchParams();
    for (const [key, value] of form) if (typeof value === 'string' && value.trim() !== '') params.set(key, value.trim());
    location.hash = `#/payments${params.size > 0 ? `?${params}` : ''}`;
  }

  override render(): TemplateResult {
    const text = this.text.list;
    const chosen = (name: string, value: string) => this.params.get(name) === value;
    return html`
      <h2>${text.heading}</h2>
      <form class="card row" role="search" aria-label=${text.filters} @submit=${this.filter}>
        <div class="field">
          <label for="state">${text.state}</label>
          <select id="state" name="state">
            <option value="">${text.anyState}</option>
            <option value="open" ?selected=${chosen('state', 'open')}>${text.open}</option>
            ${consolePaymentStates.map((value) => html`<option value=${value} ?selected=${chosen('state', value)}>${this.text.states[value]}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="age">${text.age}</label>
          <select id="age" name="withinHours">
            <option value="">${text.anyAge}</option>
            ${ageChoices.map((hours) => html`<option value=${hours} ?selected=${chosen('withinHours', String(hours))}>${text.hours(hours)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="order">${text.search}</label>
          <input id="order" name="orderId" type="search" .value=${this.params.get('orderId') ?? ''} autocomplete="off" />
        </div>
        <button type="submit">${text.apply}</button>
      </form>
      ${this.renderList()}
      <momo-console-export .client=${this.client} .text=${this.text}></momo-console-export>
    `;
  }

  private renderList(): TemplateResult | typeof nothing {
    const text = this.text.list;
    const language = this.text.locale;
    if (this.problem) return html`<p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    if (!this.payments) return html`<p role="status">${this.text.loading}</p>`;
    if (this.payments.length === 0 && this.unpaid) {
      const { orderId, amount, currencyCode, createdAt, expiresAt } = this.unpaid;
      return html`<p role="status" class="unpaid">${text.unpaid(orderId, amountText(amount, currencyCode, language), timeText(createdAt, language), timeText(expiresAt, language))}</p>`;
    }
    if (this.payments.length === 0) return html`<p role="status">${text.none}</p>`;
    return html`
      <p role="status" class="muted">${text.caption(this.payments.length)}</p>
      <div class="scroll card">
        <table>
          <caption>${text.heading}</caption>
          <thead>
            <tr>
              <th scope="col">${text.order}</th>
              <th scope="col">${text.amount}</th>
              <th scope="col">${text.number}</th>
              <th scope="col">${text.operator}</th>
              <th scope="col">${text.stateColumn}</th>
              <th scope="col">${text.ageColumn}</th>
            </tr>
          </thead>
          <tbody>
            ${this.payments.map(
              (payment) => html`
                <tr>
                  <th scope="row"><a href="#/payments/${encodeURIComponent(payment.orderId)}">${plainText(payment.orderId)}</a></th>
                  <td>${amountText(payment.amount, payment.currencyCode, language)}</td>
                  <td>${payment.phoneNumberMasked}</td>
                  <td>${payment.operator ?? '—'}</td>
                  <td class=${payment.state === 'failed' ? 'bad' : payment.state === 'completed' ? 'good' : ''}>${this.text.states[payment.state] ?? payment.state}</td>
                  <td><time datetime=${payment.updatedAt} title=${timeText(payment.updatedAt, language)}>${this.text.age(payment.ageMinutes)}</time></td>
                </tr>
              `,
            )}
          </tbody>
        </table>
      </div>
    `;
  }
}
