/**
 * `<momo-console-payment>`: one payment: what it is, its timeline (states, the service's
 * notifications, each delivery to the merchant with its status code and duration, refunds), and its
 * actions: send its notifications again, refund it after a confirmation that repeats the amount and
 * the (masked) number.
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { ConsolePaymentDetail, ConsoleRedelivery, ConsoleSession, ConsoleTimelineItem } from '../contract/console.js';
import { ConsoleRequestError, type ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleText } from './console-text-en.js';
import { amountText, plainText, timeText } from './format.js';

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
  /**
   * The refund sent whose answer has not come back definite (a lost answer, a 5xx): kept, in this
   * tab's session storage too, until one does, so that trying again repeats the same refundId and
   * the server pays it once. A new refundId only for a new confirmation after a definite answer.
   */
  @state() private pendingRefund: PendingRefund | null = null;
  /**
   * The pending refund is on the wire now: its answer is not lost yet, so the page says it is
   * being sent rather than that its answer was lost (it is kept pending from before the send, so
   * that a reload mid-flight still repeats the same refundId).
   */
  @state() private refundSending = false;
  // null until the first load: an empty query ('') is a query too.
  private loaded: string | null = null;

  override willUpdate(): void {
    if (this.orderId === this.loaded) return;
    this.loaded = this.orderId;
    this.payment = null;
    this.pendingRefund = readPendingRefund(this.orderId);
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
    this.dialog.showModal();
  }

  private confirmRefund(): Promise<void> {
    this.dialog.close();
    return this.sendRefund({ refundId: `console-${crypto.randomUUID()}`, amount: this.refundAmount });
  }

  /** Sends `refund`; keeps it pending until the server answers something definite. */
  private sendRefund(refund: PendingRefund): Promise<void> {
    this.pendingRefund = refund;
    writePendingRefund(this.orderId, refund);
    return this.act(async () => {
      this.refundSending = true;
      try {
        const answer = await this.client.post<{ refund: { state: string } }>(`/api/payments/${encodeURIComponent(this.orderId)}/refunds`, refund);
        this.settleRefund();
        return this.text.payment.refunded(answer.refund.state);
      } catch (error) {
        // A refusal (4xx) is definite: nothing was paid, the next confirmation is a new refund.
        // A lost answer or a 5xx may have paid: the same refundId goes again.
        if (error instanceof ConsoleRequestError && error.status < 500) this.settleRefund();
        throw error;
      } finally {
        this.refundSending = false;
      }
    });
  }

  private settleRefund(): void {
    this.pendingRefund = null;
    writePendingRefund(this.orderId, null);
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
      <h2>${text.heading(plainText(payment.orderId))}</h2>
      <section class="card" aria-labelledby="facts">
        <h3 id="facts">${text.facts}</h3>
        <dl>
          <dt>${this.text.list.amount}</dt><dd>${amount}</dd>
          <dt>${this.text.list.number}</dt><dd>${payment.phoneNumberMasked}</dd>
          <dt>${this.text.list.operator}</dt><dd>${plainText(payment.operator ?? '—')}</dd>
          <dt>${this.text.list.stateColumn}</dt><dd>${this.text.states[payment.state] ?? payment.state}</dd>
          <dt>${text.serviceOrderId}</dt><dd>${plainText(payment.serviceOrderId)}</dd>
          <dt>${text.transactionId}</dt><dd>${payment.transactionId ? plainText(payment.transactionId) : text.none}</dd>
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
    const pending = this.pendingRefund;
    return html`
      <h4>${text.refundHeading}</h4>
      ${pending && this.refundSending
        ? html`<p role="status">${text.refundSending(amountText(pending.amount, payment.currencyCode, this.text.locale), payment.phoneNumberMasked)}</p>`
        : pending
        ? html`
            <p class="bad">${text.refundAnswerLost(amountText(pending.amount, payment.currencyCode, this.text.locale), payment.phoneNumberMasked)}</p>
            <button type="button" ?disabled=${this.busy} @click=${() => this.sendRefund(pending)}>${text.refundRetry}</button>
          `
        : !this.session.refunds
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
        return html`${at} — ${text.notification(plainText(item.status))}`;
      case 'delivery':
        return html`${at} —
          <span class=${item.ok ? 'good' : 'bad'}>${text.delivery(item.ok, item.sink)}</span>
          ${this.deliveryFacts(item)}${item.error ? html` <span class="muted">${plainText(item.error)}</span>` : nothing}`;
      case 'refund':
        return html`${at} — ${text.refund(amountText(item.amount, this.payment!.currencyCode, locale), item.state)}`;
      default:
        throw new Error(`momo-console: unknown timeline item ${JSON.stringify(item satisfies never)}`);
    }
  }
}

interface PendingRefund {
  refundId: string;
  amount: string;
}

const pendingKey = (orderId: string) => `momo-console:pending-refund:${orderId}`;

/** The refund of this order still waiting for a definite answer in this tab (it survives a reload). */
function readPendingRefund(orderId: string): PendingRefund | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(pendingKey(orderId)) ?? 'null') as PendingRefund | null;
    return kept && typeof kept.refundId === 'string' && typeof kept.amount === 'string' ? kept : null;
  } catch {
    return null;
  }
}

function writePendingRefund(orderId: string, refund: PendingRefund | null): void {
  try {
    if (refund) sessionStorage.setItem(pendingKey(orderId), JSON.stringify(refund));
    else sessionStorage.removeItem(pendingKey(orderId));
  } catch {
    // Storage refused (a private mode): the pending refund is kept in this page's memory only.
  }
}
