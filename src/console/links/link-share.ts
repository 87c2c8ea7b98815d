/**
 * `<momo-console-link-share>`: what a merchant sends the payer once a link exists: its URL, a QR
 * code to show or print, a "share on WhatsApp" link (`wa.me/?text=`, the description and the URL in
 * one message) and a copy button. The copy uses the clipboard where the browser allows it (a secure
 * context), else selects the URL for the merchant's own Ctrl+C; either way the status line says it,
 * and screen readers hear it (a polite live region).
 */
import { LitElement, css, html, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { ConsoleNewLink } from '../../contract/console.js';
import { consoleStyles } from '../console-styles.js';
import type { ConsoleText } from '../console-text-en.js';
import { qrSvg } from './qr-svg.js';

/** The WhatsApp share URL: the payer's chat opens with the description and the link in one message. */
export const whatsAppShareUrl = (link: Pick<ConsoleNewLink, 'description' | 'url'>) => `https://wa.me/?text=${encodeURIComponent(`${link.description} ${link.url}`)}`;

export class ConsoleLinkShare extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .qr {
        width: 12rem;
        height: 12rem;
        display: block;
      }
      .url {
        width: 100%;
        font-family: ui-monospace, monospace;
      }
    `,
  ];

  @property({ attribute: false }) link!: ConsoleNewLink;
  @property({ attribute: false }) text!: ConsoleText;
  @state() private copyStatus = '';
  @query('input') private urlField!: HTMLInputElement;

  private async copy(): Promise<void> {
    const text = this.text.links;
    try {
      await navigator.clipboard.writeText(this.link.url);
      this.copyStatus = text.copied;
    } catch {
      // No clipboard (plain http away from localhost, a refused permission): select it for Ctrl+C.
      this.urlField.focus();
      this.urlField.select();
      this.copyStatus = text.copySelected;
    }
  }

  override render(): TemplateResult {
    const text = this.text.links;
    return html`
      <div class="field">
        <label for="link-url">${text.url}</label>
        <input id="link-url" class="url" readonly .value=${this.link.url} @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()} />
      </div>
      <p class="row">
        <button type="button" class="secondary" @click=${this.copy}>${text.copy}</button>
        <a href=${whatsAppShareUrl(this.link)} target="_blank" rel="noopener noreferrer">${text.whatsApp}</a>
        <a href=${this.link.url} target="_blank" rel="noopener">${text.openPage}</a>
      </p>
      <p role="status" aria-live="polite" class="good">${this.copyStatus}</p>
      ${qrSvg(this.link.qr, text.qr(this.link.description))}
    `;
  }
}
