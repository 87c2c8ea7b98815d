/**
 * `<momo-console-payment>`: one payment: what it is, its timeline (states, the service's
 * notifications, each delivery to the merchant with its status code and duration, refunds), and its
 * actions: send its notifications again, refund it after a confirmation that repeats the amount and
 * the (masked) number.
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { ConsolePaymentDetail, ConsoleRedelivery, ConsoleSession, ConsoleTimelineItem } from '../contract/console.js';
import type { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';
import { amountText, timeText } from './format.js';

export class ConsolePaymentSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @property({ attribute: false }) session!: ConsoleSession;
  @property({ attribute: false }) orderId = '';
  @state() private payment: ConsolePaymentDetail | null = null;
  @state() private problem: string | null = null;
  /** What the last action said (announced in a live region). */
  @state() private outcome = '';
  @state() private busy = false;
  @state() private refundAmount = '';
  @query('dialog') private dialog!: HTMLDialogElement;
  /** One id per confirmation: a double click or a retry after a lost answer refunds once. */
  private refundId = '';
  // null until the first load: an empty query ('') is a query too.
  private loaded: string | null = null;

  override willUpdate(): void {
    if (this.orderId === this.loaded) return;
    this.loaded = this.orderId;
    this.payment = null;
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.payment = await this.client.get<ConsolePaymentDetail>(`/api/payments/${encodeURIComponent(this.orderId)}`);
      this.problem = null;
    } catch (error) {
      this.problem = (error as Error).message;
    }
  }

  private async act(run: () => Promise<string>): Promise<void> {
    this.busy = true;
    try {
      this.outcome = await run();
    } catch (error) {
      this.outcome = (error as Error).message;
    } finally {
      this.busy = false;
      await this.load();
    }
  }

  private redeliver(): Promise<void> {
    return this.act(async () => {
      const result = await this.client.post<ConsoleRedelivery>(`/api/payments/${encodeURIComponent(this.orderId)}/redeliver`);
      const delivered = result.deliveries.filter((delivery) => delivery.delivered).length;
      return this.text.payment.redelivered(delivered, result.deliveries.length);
    });
  }

  private askRefund(event: SubmitEvent): void {
    event.preventDefault();
    const field = (event.target as HTMLFormElement).elements.namedItem('amount') as HTMLInputElement;
    if (!field.reportValidity()) return;
    this.refundAmount = field.value.trim();
    this.refundId = `console-${crypto.randomUUID()}`;
    this.dialog.showModal();
  }

  private confirmRefund(): Promise<void> {
    this.dialog.close();
    return this.act(async () => {
      const { refund } = await this.client.post<{ refund: { state: string } }>(`/api/payments/${encodeURIComponent(this.orderId)}/refunds`, {
        refundId: this.refundId,
        amount: this.refundAmount,
      });
      return this.text.payment.refunded(refund.state);
    });
  }

  override render(): TemplateResult {
    const text = this.text.payment;
    if (this.problem) return html`<p><a href="#/payments">${text.back}</a></p><p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    const payment = this.payment;
    if (!payment) return html`<p role="status">${this.text.loading}</p>`;
    const locale = this.text.locale;
    const amount = amountText(payment.amount, payment.currencyCode, locale);
    return html`
      <p><a href="#/payments">${text.back}</a></p>
      <h2>${text.heading(payment.orderId)}</h2>
      <section class="card" aria-labelledby="facts">
        <h3 id="facts">${text.facts}</h3>
        <dl>
          <dt>${this.text.list.amount}</dt><dd>${amount}</dd>
          <dt>${this.text.list.number}</dt><dd>${payment.phoneNumberMasked}</dd>
          <dt>${this.text.list.operator}</dt><dd>${payment.operator ?? '—'}</dd>
          <dt>${this.text.list.stateColumn}</dt><dd>${this.text.states[payment.state] ?? payment.state}</dd>
          <dt>${text.serviceOrderId}</dt><dd>${payment.serviceOrderId}</dd>
          <dt>${text.transactionId}</dt><dd>${payment.transactionId ?? text.none}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="timeline">
        <h3 id="timeline">${text.timeline}</h3>
        <ol>
          ${payment.timeline.map((item) => html`<li>${this.timelineLine(item, locale)}</li>`)}
        </ol>
      </section>
      <section class="card" aria-labelledby="actions">
        <h3 id="actions">${text.actions}</h3>
        ${payment.undelivered > 0 ? html`<p class="bad">${text.undelivered(payment.undelivered)}</p>` : nothing}
        ${this.session.merchantEndpoint
          ? html`<button type="button" ?disabled=${this.busy} @click=${this.redeliver}>${text.redeliver}</button>`
          : html`<p class="muted">${text.noEndpoint}</p>`}
        ${this.renderRefund(payment)}
        <p role="status" aria-live="polite">${this.outcome}</p>
      </section>
    `;
  }

  private renderRefund(payment: ConsolePaymentDetail): TemplateResult {
    const text = this.text.payment;
    const refundable = payment.refundable !== '0' && Number(payment.refundable) > 0;
    return html`
      <h4>${text.refundHeading}</h4>
      ${!this.session.refunds
        ? html`<p class="muted">${text.refundsOff}</p>`
        : !refundable
          ? html`<p class="muted">${text.notRefundable}</p>`
          : html`
              <form class="row" @submit=${this.askRefund}>
                <div class="field">
                  <label for="refund-amount">${text.refundAmount(amountText(payment.refundable, payment.currencyCode, this.text.locale))}</label>
                  <input id="refund-amount" name="amount" inputmode="decimal" required pattern="[0-9]+([.][0-9]+)?" .value=${payment.refundable} />
                </div>
                <button type="submit" class="secondary" ?disabled=${this.busy}>${text.refundStart}</button>
              </form>
            `}
      <dialog aria-labelledby="confirm-heading" aria-describedby="confirm-text">
        <h3 id="confirm-heading">${text.confirmHeading}</h3>
        <p id="confirm-text">${text.confirm(amountText(this.refundAmount || '0', payment.currencyCode, this.text.locale), payment.phoneNumberMasked)}</p>
        <div class="row">
          <button type="button" @click=${this.confirmRefund}>${text.confirmYes}</button>
          <button type="button" class="secondary" @click=${() => this.dialog.close()}>${text.cancel}</button>
        </div>
      </dialog>
    `;
  }

  /** `(HTTP 500, 12 ms)`; a callback that returned has no HTTP status to tell. */
  private deliveryFacts(item: Extract<ConsoleTimelineItem, { kind: 'delivery' }>): string {
    const text = this.text.payment;
    const facts = [item.status !== null || !item.ok ? text.status(item.status) : null, item.durationMs === null ? null : text.duration(item.durationMs)].filter(Boolean);
    return facts.length > 0 ? `(${facts.join(', ')})` : '';
  }

  private timelineLine(item: ConsoleTimelineItem, locale: string): TemplateResult {
    const text = this.text.payment;
    const at = html`<time datetime=${item.at}>${timeText(item.at, locale)}</time>`;
    switch (item.kind) {
      case 'state':
        return html`${at} — ${text.state(this.text.states[item.state] ?? item.state, item.attempt)}`;
      case 'notification':
        return html`${at} — ${text.notification(item.status)}`;
      case 'delivery':
        return html`${at} —
          <span class=${item.ok ? 'good' : 'bad'}>${text.delivery(item.ok, item.sink)}</span>
          ${this.deliveryFacts(item)}${item.error ? html` <span class="muted">${item.error}</span>` : nothing}`;
      case 'refund':
        return html`${at} — ${text.refund(amountText(item.amount, this.payment!.currencyCode, locale), item.state)}`;
      default:
        throw new Error(`momo-console: unknown timeline item ${JSON.stringify(item satisfies never)}`);
    }
  }
}
