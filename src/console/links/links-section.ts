/**
 * `<momo-console-links>`: payment links (issue 44). A form of two fields (what the payer pays for,
 * the amount) creates one through the console's routes, which apply the server API's rules; the
 * currency is the shop's (the newest link's), under "More options" with single-use or reusable. The
 * new link's URL, QR code, WhatsApp link and copy button follow (link-share.ts). Below, the links
 * newest first, a page at a time from the store's index ("Older links" follows the page's cursor).
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsoleLink, ConsoleLinkCurrency, ConsoleLinkList, ConsoleNewLink } from '../../contract/console.js';
import type { ConsoleClient } from '../console-client.js';
import { consoleStyles } from '../console-styles.js';
import type { ConsoleText } from '../console-text-en.js';
import { amountText, plainText, timeText } from '../format.js';

const pageSize = 20;

/** A link's price as the merchant reads it: the fixed amount, or the payer's bounds. */
export function linkPrice(link: ConsoleLink, text: ConsoleText): string {
  if (link.amount !== null) return amountText(link.amount, link.currencyCode, text.locale);
  return text.links.bounds(amountText(link.minAmount ?? '0', link.currencyCode, text.locale), amountText(link.maxAmount ?? '0', link.currencyCode, text.locale));
}

export class ConsoleLinksSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) client!: ConsoleClient;
  @property({ attribute: false }) text!: ConsoleText;
  @state() private currency: string | null = null;
  @state() private created: ConsoleNewLink | null = null;
  @state() private formProblem = '';
  @state() private busy = false;
  @state() private links: ConsoleLink[] | null = null;
  @state() private next: string | null = null;
  @state() private problem: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.client.get<ConsoleLinkCurrency>('/api/links/currency').then((body) => (this.currency = body.currencyCode), () => {});
    void this.loadPage(null);
  }

  private async loadPage(before: string | null): Promise<void> {
    try {
      const page = await this.client.get<ConsoleLinkList>(`/api/links?limit=${pageSize}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      this.links = before ? [...(this.links ?? []), ...page.links] : page.links;
      this.next = page.next;
    } catch (error) {
      this.problem = (error as Error).message;
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    // Kept before any await: once the event is dispatched its target is retargeted away from the shadow root.
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    const reusable = form.get('reusable') === 'on';
    const maxPayments = field('maxPayments');
    this.busy = true;
    this.formProblem = '';
    try {
      this.created = await this.client.post<ConsoleNewLink>('/api/links', {
        currencyCode: field('currencyCode').toUpperCase(),
        description: field('description'),
        amount: field('amount'),
        ...(reusable ? { reusable } : {}),
        ...(reusable && maxPayments !== '' ? { maxPayments: Number(maxPayments) } : {}),
      });
      this.currency = this.created.currencyCode;
      formElement.reset();
      await this.loadPage(null);
    } catch (error) {
      // The rules' own sentence (link-rules.ts), as the server API gives it.
      this.formProblem = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  override render(): TemplateResult {
    const text = this.text.links;
    const currencyField = html`<div class="field">
      <label for="link-currency">${text.currency}</label>
      <input id="link-currency" name="currencyCode" required .value=${this.currency ?? ''} autocomplete="off" size="4" />
    </div>`;
    return html`
      <h2>${text.heading}</h2>
      <form class="card" aria-labelledby="new-link" @submit=${this.create}>
        <h3 id="new-link">${text.newLink}</h3>
        <div class="row">
          <div class="field">
            <label for="link-description">${text.description}</label>
            <!-- maxlength counts UTF-16 units: 400 lets 200 emoji through; the server counts code points (at most 200). -->
            <input id="link-description" name="description" required maxlength="400" autocomplete="off" />
          </div>
          <div class="field">
            <label for="link-amount">${text.amount(this.currency)}</label>
            <input id="link-amount" name="amount" required inputmode="decimal" autocomplete="off" />
          </div>
          ${this.currency === null ? currencyField : nothing}
          <button type="submit" ?disabled=${this.busy}>${text.create}</button>
        </div>
        <details>
          <summary>${text.more}</summary>
          <div class="row">
            ${this.currency === null ? nothing : currencyField}
            <div class="field">
              <label><input type="checkbox" name="reusable" /> ${text.reusable}</label>
            </div>
            <div class="field">
              <label for="link-max">${text.maxPayments}</label>
              <input id="link-max" name="maxPayments" inputmode="numeric" autocomplete="off" />
            </div>
          </div>
        </details>
        <p role="alert" class="bad">${this.formProblem}</p>
      </form>
      ${this.created
        ? html`<section class="card" aria-labelledby="created-link">
            <h3 id="created-link">${text.created(plainText(this.created.description))}</h3>
            <momo-console-link-share .link=${this.created} .text=${this.text}></momo-console-link-share>
          </section>`
        : nothing}
      ${this.renderList()}
    `;
  }

  private renderList(): TemplateResult {
    const text = this.text.links;
    const language = this.text.locale;
    if (this.problem) return html`<p class="bad" role="alert">${this.text.failed(this.problem)}</p>`;
    if (!this.links) return html`<p role="status">${this.text.loading}</p>`;
    if (this.links.length === 0) return html`<p role="status">${text.none}</p>`;
    return html`
      <div class="scroll card">
        <table>
          <caption>${text.listCaption}</caption>
          <thead>
            <tr>
              <th scope="col">${text.description}</th>
              <th scope="col">${text.price}</th>
              <th scope="col">${text.state}</th>
              <th scope="col">${text.payments}</th>
              <th scope="col">${text.createdAt}</th>
            </tr>
          </thead>
          <tbody>
            ${this.links.map(
              (link) => html`<tr>
                <th scope="row"><a href="#/links/${encodeURIComponent(link.linkId)}">${plainText(link.description)}</a></th>
                <td>${linkPrice(link, this.text)}</td>
                <td class=${link.state === 'open' ? 'good' : ''}>${text.states[link.state]}</td>
                <td>${link.completedPayments}</td>
                <td><time datetime=${link.createdAt}>${timeText(link.createdAt, language)}</time></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.next ? html`<button type="button" class="secondary" @click=${() => this.loadPage(this.next)}>${text.older}</button>` : nothing}
    `;
  }
}
