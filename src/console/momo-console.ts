/**
 * `<momo-console>`: the operations console's page once signed in. It reads the session (the CSRF
 * token, what this server offers), shows one section at a time from the URL's hash (so the browser's
 * back button and a shared link work), and speaks English or French.
 */
import { LitElement, html, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsoleSession } from '../contract/console.js';
import { ConsoleClient } from './console-client.js';
import { consoleStyles } from './console-styles.js';
import { consoleEn, type ConsoleText } from './console-text-en.js';
import { consoleFr } from './console-text-fr.js';
import { consoleLanguages, languageName, nextConsoleLanguage, type ConsoleLanguage } from '../contract/languages.js';
import { css } from 'lit';

/** The console's words in each of its languages (contract/languages.ts lists them). */
const consoleTexts: Record<ConsoleLanguage, ConsoleText> = { en: consoleEn, fr: consoleFr };

type Route =
  | { name: 'overview' }
  | { name: 'payments'; params: URLSearchParams }
  | { name: 'payment'; orderId: string }
  | { name: 'links' }
  | { name: 'link'; linkId: string }
  | { name: 'endpoint' };

/** `#/payments?state=failed`, `#/payments/<order id>`, `#/links`, `#/links/<link id>`, `#/endpoint`; anything else is the overview. */
export function routeOf(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'payments' && parts[1]) return { name: 'payment', orderId: decodeURIComponent(parts.slice(1).join('/')) };
  if (parts[0] === 'payments') return { name: 'payments', params: new URLSearchParams(query) };
  if (parts[0] === 'links' && parts[1]) return { name: 'link', linkId: decodeURIComponent(parts[1]) };
  if (parts[0] === 'links') return { name: 'links' };
  if (parts[0] === 'endpoint') return { name: 'endpoint' };
  return { name: 'overview' };
}

export class MomoConsole extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      header {
        background: var(--momo-console-primary, #0b6b4f);
        color: var(--momo-console-on-primary, #fff);
        padding: 0.5rem 1rem;
      }
      header a,
      header button {
        color: var(--momo-console-on-primary, #fff);
      }
      header h1 {
        margin: 0.25rem 0;
        font-size: 1.3rem;
      }
      nav ul {
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        margin: 0.25rem 0;
        padding: 0;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
        text-underline-offset: 0.3em;
        text-decoration-thickness: 3px;
      }
      .tools {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
      }
      header button {
        background: transparent;
        border-color: var(--momo-console-on-primary, #fff);
      }
      main {
        padding: 0 1rem 2rem;
        max-width: 72rem;
        margin: 0 auto;
      }
    `,
  ];

  /** Where the console is served (`<publicUrl>/console`), given by the shell page. */
  @property() base = '';
  @state() private route: Route = routeOf(location.hash);
  @state() private session: ConsoleSession | null = null;
  @state() private problem: string | null = null;
  @state() private language: ConsoleLanguage = consoleLanguages.find((code) => code === document.documentElement.lang) ?? 'en';
  private client!: ConsoleClient;
  private readonly onHash = () => {
    this.route = routeOf(location.hash);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.client = new ConsoleClient(this.base);
    addEventListener('hashchange', this.onHash);
    this.client.start().then(
      (session) => (this.session = session),
      (error: Error) => (this.problem = error.message),
    );
  }

  override disconnectedCallback(): void {
    removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  private get text(): ConsoleText {
    return consoleTexts[this.language];
  }

  private switchLanguage(event: Event): void {
    event.preventDefault();
    this.language = nextConsoleLanguage(this.language);
    document.documentElement.lang = this.language;
  }

  override render(): TemplateResult {
    const text = this.text;
    const other = nextConsoleLanguage(this.language);
    const link = (href: string, label: string, current: boolean) => html`<li><a href=${href} aria-current=${current ? 'page' : 'false'}>${label}</a></li>`;
    const name = this.route.name;
    return html`
      <header>
        <h1>${text.title}</h1>
        <div class="tools">
          <nav aria-label=${text.nav.label}>
            <ul>
              ${link('#/', text.nav.overview, name === 'overview')} ${link('#/payments', text.nav.payments, name === 'payments' || name === 'payment')}
              ${link('#/links', text.nav.links, name === 'links' || name === 'link')} ${link('#/endpoint', text.nav.endpoint, name === 'endpoint')}
            </ul>
          </nav>
          <a href="?lang=${other}" lang=${other} @click=${this.switchLanguage}>${languageName(other)}</a>
          <form method="post" action="${this.base}/sign-out">
            <input type="hidden" name="csrf" .value=${this.client?.csrf ?? ''} />
            <button type="submit">${text.signOut}</button>
          </form>
        </div>
      </header>
      <main>${this.renderSection(text)}</main>
    `;
  }

  private renderSection(text: ConsoleText): TemplateResult {
    if (this.problem) return html`<p class="bad" role="alert">${text.failed(this.problem)}</p>`;
    if (!this.session) return html`<p role="status">${text.loading}</p>`;
    const route = this.route;
    switch (route.name) {
      case 'overview':
        return html`<momo-console-overview .client=${this.client} .text=${text}></momo-console-overview>`;
      case 'payments':
        return html`<momo-console-payments .client=${this.client} .text=${text} .params=${route.params}></momo-console-payments>`;
      case 'payment':
        return html`<momo-console-payment .client=${this.client} .text=${text} .session=${this.session} .orderId=${route.orderId}></momo-console-payment>`;
      case 'links':
        return html`<momo-console-links .client=${this.client} .text=${text}></momo-console-links>`;
      case 'link':
        return html`<momo-console-link .client=${this.client} .text=${text} .linkId=${route.linkId}></momo-console-link>`;
      case 'endpoint':
        return html`<momo-console-endpoint .client=${this.client} .text=${text} .session=${this.session}></momo-console-endpoint>`;
      default:
        throw new Error(`momo-console: no section for ${JSON.stringify(route satisfies never)}`);
    }
  }
}
