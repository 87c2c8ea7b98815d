import { html, LitElement, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import type { CompanionClient } from '../client/types.js';
import { languageAddedEvent } from '../localize/added-languages.js';
import { languageFor, languageTagOf, missingLanguageFile, stringsFor } from '../localize/index.js';
import { requestLanguage } from '../localize/language-requests.js';
import type { Strings } from '../localize/en.js';
import type { Status } from '../machine/states.js';
import { CheckoutController } from './internal/checkout-controller.js';
import { numberStep } from './internal/views/number-step-view.js';
import { otpStep } from './internal/views/otp-step-view.js';
import { approvalUnavailableStep, errorStep, expiredStep, failedStep, succeededStep } from './internal/views/outcome-views.js';
import { amountText, problemText } from './internal/views/view-parts.js';
import type { ViewContext } from './internal/views/view-parts.js';
import { approvalStep, redirectingStep, waitingStep } from './internal/views/waiting-views.js';
import { numberLocale } from './digits.js';
import { prefersPhoneHandoff } from './phone-handoff.js';
import { olderEngineStyles } from './older-engine-styles.js';
import { styles } from './styles/checkout-styles.js';

/**
 * `<momo-checkout>`: the payer's side of a mobile-money payment. It talks only to the merchant's
 * companion server, with the checkout token the merchant's page gives it.
 *
 * @summary Mobile-money checkout: number, operator, approval (push, OTP or redirect), outcome.
 *
 * @attr endpoint - The companion's mount point, e.g. `https://shop.example/momo`.
 * @attr token - The checkout token created by the merchant's server for this order.
 * @attr lang - Language of the texts: `en`, `fr`, `pt`, `sw`, `ar` (the element loads that language's file itself when the page did not include it: docs/embedding.md, "Languages"); else the closest `[lang]` ancestor, else the document's. Arabic lays the element out right-to-left.
 * @attr country - Default country of the number (ISO alpha-2), among the countries served.
 * @attr expiry-seconds - Seconds without an outcome before the "we haven't heard back" state. Default 180.
 * @attr digits - The digits amounts are written in, as a CLDR numbering system: `latn` (0-9, the default in every language and every browser, as shop pages usually write their totals), `arab` (Arabic-Indic ٠-٩), `arabext`, ...
 * @attr remember - `off` turns off the payer's "remember this number on this device" option (opt-in, unticked by default; kept in this origin's localStorage only).
 * @attr checkout-view - Optional: the checkout's public view as JSON, exactly as the companion's `GET /checkout` answers it for this token, rendered into the page by the merchant's server. Saves the element that first round trip (the amount and countries show at once); ignored when malformed or expired.
 *
 * @fires {MomoStateChangeEvent} momo-state-change - The checkout moved to another step (`detail.status`, `detail.previous`).
 * @fires {MomoSubmitEvent} momo-submit - The payer asked to pay. Cancelable: `preventDefault()` vetoes the pay-in.
 * @fires {MomoSucceededEvent} momo-succeeded - The payment is completed (`detail.orderId`, `detail.payment`).
 * @fires {MomoFailedEvent} momo-failed - The payment failed (`detail.payment.canRetry`).
 * @fires {MomoErrorEvent} momo-error - Something failed or was refused: `detail.code` (stable, e.g. `TOKEN_EXPIRED`, `ENDPOINT_UNREACHABLE`, `NETWORK`), `detail.message` (for developers), `detail.httpStatus`.
 *
 * @csspart base - The card around everything.
 * @csspart phone-input - The phone number field.
 * @csspart operator - The operator's logo and name.
 * @csspart instructions - How to get a payment code (OTP step).
 * @csspart otp-input - The payment code field.
 * @csspart submit-button - The pay button.
 * @csspart status - The live region announcing progress.
 * @csspart error - Error messages.
 *
 * @cssprop --momo-color-primary - Site-wide brand colour (buttons, links, focus). Component override: `--momo-checkout-color-primary`.
 * @cssprop --momo-color-on-primary - Text on the brand colour.
 * @cssprop --momo-color-surface - Card background.
 * @cssprop --momo-color-text - Text colour.
 * @cssprop --momo-color-muted - Secondary text colour.
 * @cssprop --momo-color-border - Borders of the card and fields.
 * @cssprop --momo-color-error - Error text.
 * @cssprop --momo-color-success - Success heading.
 * @cssprop --momo-radius - Corner radius. Component override: `--momo-checkout-radius`.
 * @cssprop --momo-font-family - Font. Component override: `--momo-checkout-font-family`.
 * @cssprop --momo-spacing - Base spacing.
 * @cssprop --momo-checkout-max-width - Widest the card grows. Default 28rem.
 * @cssprop --momo-checkout-min-height - Height the element keeps from its first render, so the page below does not move while it loads (docs/embedding.md, "Keeping the page still"). Default 27rem.
 * @cssprop --momo-color-scheme - `light` or `dark`: how native controls (radios, the country list) are drawn. Unset, the page's `color-scheme` applies. Component override: `--momo-checkout-color-scheme`.
 *
 * @example
 * ```html
 * <script type="module" src="/momo-checkout.js"></script>
 * <momo-checkout endpoint="/momo" token="…token from createCheckout…" lang="fr" country="CI"></momo-checkout>
 * <script type="module">
 *   document.querySelector('momo-checkout')
 *     .addEventListener('momo-succeeded', (event) => location.assign('/thanks?order=' + event.detail.orderId));
 * </script>
 * ```
 */
export class MomoCheckout extends LitElement {
  static override styles = [styles, olderEngineStyles];

  // Lit's reactive properties: each observes the attribute of its lower-cased name unless said
  // otherwise; a `state` is private state a render reads (`attribute: false` said again for the
  // manifest's analyzer, which lists it as an attribute otherwise). Declared here rather than with
  // Lit's decorators, whose code and one call per property were 0.4 KB gzip of the script-tag file
  // (issue 54). The two test hooks after the settings are plain fields: read when used, not rendered.
  // Line comments: JSDoc here would print the hooks' names in the published declarations.
  static override properties: PropertyDeclarations = {
    endpoint: {},
    token: {},
    lang: {},
    country: {},
    expirySeconds: { type: Number, attribute: 'expiry-seconds' },
    checkoutView: { attribute: 'checkout-view' },
    remember: {},
    digits: {},
    client: { attribute: false },
    promptHelpAfterSeconds: { attribute: false },
    validationDelayMs: { attribute: false },
    setupWaitMs: { attribute: false },
    brokenLogos: { state: true, attribute: false },
    copiedCode: { state: true, attribute: false },
  };

  endpoint = '';
  token = '';
  // Not reflected: an empty lang attribute would mean "unknown language" to assistive technology.
  override lang = '';
  country = '';
  expirySeconds = 180;
  checkoutView = '';
  remember = '';
  digits = '';
  /** A companion client (property only): overrides endpoint/token. How tests and stories drive it. */
  client: CompanionClient | undefined = undefined;
  /** Seconds of waiting for a push approval before the "didn't get the prompt?" help (property only). */
  promptHelpAfterSeconds = 15;
  /** Pause after the last keystroke before the number is checked, in ms (property only). */
  validationDelayMs = 800;
  /**
   * How long a missing `endpoint` or `token` is waited for (a framework may set it a moment after
   * creating the element) before the payer is told and a `console.warn` names it, in ms (property only).
   */
  setupWaitMs = 1000;
  /**
   * How the element leaves for an authorisation page (property only; tests replace it).
   * @internal A test hook, not part of the public interface: it is left out of the published types.
   */
  navigate: (url: string) => void = (url) => window.location.assign(url);
  /**
   * Whether to offer the approval page to the payer's phone (QR code) rather than open it here
   * (property only): a wide screen with a mouse, by default.
   * @internal A hook for stories and tests, which pick the step whatever their window: left out of the published types.
   */
  phoneHandoff: () => boolean = prefersPhoneHandoff;

  private brokenLogos = new Set<string>();
  private copiedCode: string | null = null;

  private readonly checkout = new CheckoutController(this);

  /** The current step (read-only). */
  get status(): Status {
    return this.checkout.state.status;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The payer pressed Pay: the height reserved for the element (theme.ts) has done its work, and
    // the steps after take their own (issue 41: a paid card left a large empty area below it). Now,
    // within 500 ms of the payer's input, the page moving is not counted as a layout shift. The
    // property, not min-height itself: a merchant's own `momo-checkout { min-height }` still holds.
    if (this.status === 'submitting') this.style.setProperty('--momo-checkout-min-height', '0');
    if (changed.has('client') || changed.has('endpoint') || changed.has('token') || changed.has('checkoutView')) this.checkout.configure();
    if (changed.has('country') && this.country) {
      // Programmatic: sets the choice without any user event (no momo-submit, no validation message).
      this.checkout.number.country = this.country.toUpperCase();
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(languageAddedEvent, this.onLanguageAdded);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(languageAddedEvent, this.onLanguageAdded);
  }

  /** A language file ran after the element rendered (a `defer` script, an app's lazy import). */
  private readonly onLanguageAdded = (): void => this.requestUpdate();

  private strings(): { t: Strings; locale: string; shown: string; waiting: boolean } {
    const tag = this.lang || languageTagOf(this);
    // A language whose file the page did not include: the element loads it (issue 32), hidden meanwhile.
    const missing = missingLanguageFile(tag);
    const waiting = missing !== null && requestLanguage(missing, tag) === 'pending';
    return { t: stringsFor(tag), locale: numberLocale(tag, this.digits), shown: languageFor(tag), waiting };
  }

  private statusText(t: Strings): { text: string; visible: boolean } {
    const { status, problem } = this.checkout.state;
    const visible = (text: string) => ({ text, visible: true });
    const hidden = (text: string) => ({ text, visible: false });
    switch (status) {
      case 'loading':
        return visible(t.loading);
      case 'looking-up':
        return visible(t.lookingUp);
      case 'previewing':
        return visible(t.previewing);
      case 'submitting':
        return visible(t.submitting);
      case 'entering':
      case 'ready':
        return hidden('');
      case 'needs-otp':
        return hidden(t.otpHeading);
      case 'awaiting-approval':
        return hidden(t.approveHeading);
      case 'awaiting-redirect':
        return hidden(t.awaitingRedirect);
      case 'redirecting':
        return hidden(t.redirecting);
      case 'confirming':
        return hidden(t.confirming);
      case 'checking':
        return hidden(t.checking);
      case 'succeeded':
        return hidden(t.succeededHeading);
      case 'approval-unavailable':
        return hidden(t.approvalUnavailableHeading);
      case 'failed':
        return hidden(t.failedHeading);
      case 'expired':
        return hidden(t.expiredHeading);
      case 'error':
        return hidden(problem ? problemText(t, problem) : t.errorHeading);
      default: {
        const unexpected: never = status;
        throw new Error(`momo-checkout cannot render status ${String(unexpected)}: add it to statusText.`);
      }
    }
  }

  private body(ctx: ViewContext): TemplateResult | typeof nothing {
    const { status } = this.checkout.state;
    switch (status) {
      case 'loading':
      case 'entering':
      case 'looking-up':
      case 'previewing':
      case 'ready':
        return numberStep(ctx);
      case 'submitting':
        return this.checkout.otpSent ? otpStep(ctx) : numberStep(ctx);
      case 'needs-otp':
        return otpStep(ctx);
      case 'awaiting-approval':
        return approvalStep(ctx, this.promptHelpAfterSeconds);
      case 'awaiting-redirect':
        return waitingStep(ctx.t.awaitingRedirect);
      case 'redirecting':
        return redirectingStep(ctx);
      case 'confirming':
        return waitingStep(ctx.t.confirming);
      case 'checking':
        return waitingStep(ctx.t.checking);
      case 'succeeded':
        return succeededStep(ctx);
      case 'approval-unavailable':
        return approvalUnavailableStep(ctx);
      case 'failed':
        return failedStep(ctx);
      case 'expired':
        return expiredStep(ctx);
      case 'error':
        return errorStep(ctx);
      default: {
        const unexpected: never = status;
        throw new Error(`momo-checkout cannot render status ${String(unexpected)}: add it to body.`);
      }
    }
  }

  protected override render(): TemplateResult {
    const { t, locale, shown, waiting } = this.strings();
    const ctx: ViewContext = {
      c: this.checkout,
      t,
      locale,
      endpoint: this.endpoint,
      brokenLogos: this.brokenLogos,
      onLogoError: (url) => (this.brokenLogos = new Set([...this.brokenLogos, url])),
      copiedCode: this.copiedCode,
      onCopy: (code) => void this.copy(code),
    };
    const status = this.statusText(t);
    const checkout = this.checkout.state.checkout;
    // Issue 32: the number step keeps the height the page reserved for the element (docs/embedding.md,
    // "Keeping the page still") until the payer acts: its amount row is there before the amount is
    // known, and its status line sits below the form, where showing or hiding it moves nothing.
    const { status: step } = this.checkout.state;
    const numberStep = numberStepStatuses.includes(step) && !this.checkout.otpSent;
    // In the number step "Loading…" is shown in the amount's row and "Looking up…" in the operator's
    // (views/number-step-view.ts), the live region only announces them; "Sending…" (after the payer's press) goes below.
    const shownInPlace = numberStep && step !== 'submitting';
    const statusClass = status.visible && !shownInPlace ? (numberStep ? 'muted status-line' : 'muted') : 'visually-hidden';
    // Paid: the step itself is the live region's content (announced, shown, in the DOM once), rather
    // than a hidden copy of its heading beside it: a merchant's test querying the text "Payment
    // received" finds one element (issue 41). Laid out as before: the region takes the step's place.
    const paid = step === 'succeeded';
    const body = this.body(ctx);
    // lang and dir of the texts shown (English while a language file is missing), not the page's:
    // an Arabic checkout on an English page is still right-to-left.
    return html`<section class=${waiting ? 'base language-pending' : 'base'} part="base" aria-label=${t.title} lang=${shown} dir=${t.dir}>
      ${checkout
        ? html`<div class="amount"><span class="muted">${step === 'succeeded' ? t.amountPaidLabel : t.amountLabel}</span><bdi class="amount-value">${amountText(ctx)}</bdi></div>`
        : numberStep
          ? html`<div class="amount" aria-hidden="true"><span class="muted">${status.text}</span></div>`
          : nothing}
      <div part="status" role="status" aria-live="polite" class=${paid ? '' : statusClass}>${paid ? body : status.text}</div>
      ${paid ? nothing : body}
    </section>`;
  }

  private async copy(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.copiedCode = code;
    } catch {
      // No clipboard permission (an iframe, an old browser): the code stays visible to copy by hand.
    }
  }
}

/** The statuses that show the number step (and submitting from it, before any OTP was sent). */
const numberStepStatuses: readonly Status[] = ['loading', 'entering', 'looking-up', 'previewing', 'ready', 'submitting'];

declare global {
  interface HTMLElementTagNameMap {
    'momo-checkout': MomoCheckout;
  }
}
