/**
 * `<momo-console-link>`: one payment link: its terms and standing, what to send the payer while it
 * is open (link-share.ts), the payments made through it (each an ordinary payment: its order id
 * leads to the payment's page, where it is refunded like any other), and Close after a confirmation
 * (a payment already started goes on to its end: link-actions.ts `closeLink`).
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { ConsoleLink, ConsoleLinkDetail } from '../../contract/console.js';
import type { ConsoleClient } from '../console-client.js';
import { consoleStyles } from '../console-styles.js';
import type { ConsoleText } from '../console-text-en.js';
import { amountText, plainText, timeText } from '../format.js';
import { linkPrice } from './links-section.js';

export class ConsoleLinkSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @property() linkId = '';
  @state() private link: ConsoleLinkDetail | null = null;
  @state() private problem: string | null = null;
  @state() private actionProblem = '';
  @query('dialog') private dialog!: HTMLDialogElement;
  private loaded: string | null = null;

  override willUpdate(): void {
    if (this.linkId === this.loaded) return;
    this.loaded = this.linkId;
    this.link = null;
    this.problem = null;
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.link = await this.client.get<ConsoleLinkDetail>(`/api/links/${encodeURIComponent(this.linkId)}`);
    } catch (error) {
      this.problem = (error as Error).message;
    }
  }

  private async close(): Promise<void> {
    this.dialog.close();
    this.actionProblem = '';
    try {
      await this.client.post<ConsoleLink>(`/api/links/${encodeURIComponent(this.linkId)}/close`);
      await this.load();
    } catch (error) {
      this.actionProblem = (error as Error).message;
    }
  }

  override render(): TemplateResult {
    const text = this.text.links;
    const back = html`<p><a href="#/links">${text.back}</a></p>`;
    if (this.problem) return html`${back}<p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    const link = this.link;
    if (!link) return html`${back}<p role="status">${this.text.loading}</p>`;
    const language = this.text.locale;
    return html`
      ${back}
      <h2>${plainText(link.description)}</h2>
      <dl class="card">
        <dt>${text.price}</dt>
        <dd>${linkPrice(link, this.text)}</dd>
        <dt>${text.state}</dt>
        <dd id="link-state">${text.states[link.state]}</dd>
        <dt>${text.kind}</dt>
        <dd>${link.reusable ? text.reusableKind(link.maxPayments) : text.singleUse}</dd>
        <dt>${text.expiresAt}</dt>
        <dd><time datetime=${link.expiresAt}>${timeText(link.expiresAt, language)}</time></dd>
      </dl>
      ${link.state === 'open' ? html`<section class="card" aria-label=${text.share}><momo-console-link-share .link=${link} .text=${this.text}></momo-console-link-share></section>` : nothing}
      <section class="card" aria-labelledby="link-payments">
        <h3 id="link-payments">${text.payments}</h3>
        ${link.payments.length === 0 ? html`<p>${text.noPayment}</p>` : this.paymentsTable(link)}
      </section>
      ${link.state === 'open'
        ? html`<section class="card" aria-labelledby="link-close">
            <h3 id="link-close">${text.closeHeading}</h3>
            <p>${text.closeHint}</p>
            <button type="button" @click=${() => this.dialog.showModal()}>${text.close}</button>
            <p role="alert" class="bad">${this.actionProblem}</p>
          </section>`
        : nothing}
      <dialog aria-labelledby="close-heading" aria-describedby="close-text">
        <h3 id="close-heading">${text.closeHeading}</h3>
        <p id="close-text">${text.confirmClose(plainText(link.description))}</p>
        <p class="row">
          <button type="button" @click=${this.close}>${text.confirmYes}</button>
          <button type="button" class="secondary" @click=${() => this.dialog.close()}>${this.text.payment.cancel}</button>
        </p>
      </dialog>
    `;
  }

  private paymentsTable(link: ConsoleLinkDetail): TemplateResult {
    const text = this.text.links;
    return html`<div class="scroll">
      <table>
        <caption>${text.paymentsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">${this.text.list.order}</th>
            <th scope="col">${this.text.list.stateColumn}</th>
            <th scope="col">${this.text.list.amount}</th>
            <th scope="col">${this.text.list.ageColumn}</th>
          </tr>
        </thead>
        <tbody>
          ${link.payments.map(
            (payment) => html`<tr>
              <th scope="row"><a href="#/payments/${encodeURIComponent(payment.orderId)}">${plainText(payment.orderId)}</a></th>
              <td class=${payment.state === 'failed' ? 'bad' : payment.state === 'completed' ? 'good' : ''}>${this.text.states[payment.state] ?? payment.state}</td>
              <td>${amountText(payment.amount, link.currencyCode, this.text.locale)}</td>
              <td><time datetime=${payment.updatedAt}>${timeText(payment.updatedAt, this.text.locale)}</time></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }
}
