import { html, nothing, svg } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { TemplateResult } from 'lit';
import type { OperatorView } from '../../contract/companion.js';
import { formatAmount } from '../../contract/money.js';
import type { Strings } from '../../localize/en.js';
import type { Problem } from '../../machine/events.js';
import { isolated, leftToRight } from '../bidi.js';
import { countryOptions } from '../country-names.js';
import { splitInstructions } from '../instructions.js';
import { isAllowedLogo } from '../urls.js';
import type { CheckoutController } from './checkout-controller.js';

/** Everything a view needs; views are pure functions of it (no state of their own). */
export interface ViewContext {
  c: CheckoutController;
  t: Strings;
  locale: string;
  endpoint: string;
  brokenLogos: ReadonlySet<string>;
  onLogoError: (url: string) => void;
  copiedCode: string | null;
  onCopy: (code: string) => void;
}

export function amountText(ctx: ViewContext): string {
  const checkout = ctx.c.state.checkout;
  if (!checkout) return '';
  return formatAmount(checkout.amount, checkout.currencyCode, ctx.locale, checkout.decimalPlaces ?? undefined);
}

export function problemText(t: Strings, problem: Problem): string {
  return t.problem[problem.code];
}

function heading(text: string): TemplateResult {
  // tabindex=-1: focus moves here when a new step appears (issue 4 §1, accessibility).
  return html`<h2 tabindex="-1" data-autofocus>${text}</h2>`;
}

function logo(ctx: ViewContext, operator: { name: string; logoUrl: string }): TemplateResult {
  const page = typeof location === 'undefined' ? undefined : location.href;
  const usable = isAllowedLogo(operator.logoUrl, ctx.endpoint || undefined, page) && !ctx.brokenLogos.has(operator.logoUrl);
  // The name is printed beside the logo, so the image is decorative (alt="").
  return usable
    ? html`<img class="logo" src=${operator.logoUrl} alt="" @error=${() => ctx.onLogoError(operator.logoUrl)} />`
    : html`<span class="logo logo-placeholder" aria-hidden="true">${operator.name.slice(0, 1).toUpperCase()}</span>`;
}

function operatorRow(ctx: ViewContext, operator: { name: string; logoUrl: string }): TemplateResult {
  return html`<div class="operator" part="operator">${logo(ctx, operator)}<span>${operator.name}</span></div>`;
}

/** USSD codes are dir="ltr": in an Arabic sentence, `*855*4*6#` must still read as it is dialled. */
export function instructionsView(ctx: ViewContext, text: string | null): TemplateResult {
  const { t } = ctx;
  if (!text || !text.trim()) return html`<p class="instructions" part="instructions">${t.otpFallback}</p>`;
  return html`<p class="instructions" part="instructions">
    ${splitInstructions(text).map((part) =>
      'code' in part
        ? html`<span class="ussd"
            ><a href=${part.href} dir="ltr" aria-label=${t.dial(part.code)}>${part.code}</a
            ><button type="button" class="copy" @click=${() => ctx.onCopy(part.code)}>
              ${ctx.copiedCode === part.code ? t.copied : t.copy}<span class="visually-hidden"> ${part.code}</span>
            </button></span
          >`
        : part.text,
    )}
  </p>`;
}

/**
 * The phone row is dir="ltr" in every language: a number reads left to right, dial code first.
 *
 * loading (the payer types while the checkout loads), entering, looking-up, previewing, ready, and
 * submitting from ready.
 */
export function numberStep(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  const { state } = c;
  const checkout = state.checkout;
  const countries = checkout?.countries ?? c.number.provisionalCountries();
  const busy = state.status === 'submitting';
  const typing = state.status === 'entering' || state.status === 'loading';
  const phoneError =
    c.number.phoneCheck?.kind === 'invalid'
      ? t.phone[c.number.phoneCheck.code]
      : state.problem && (state.problem.code === 'INVALID_PHONE' || state.problem.code === 'NO_OPERATOR')
        ? problemText(t, state.problem)
        : null;
  const otherProblem = state.problem && !phoneError && state.status !== 'entering' ? state.problem : null;
  const lookup = state.lookup;
  const choices: Array<{ operator: OperatorView; wallet: boolean }> = [];
  if (lookup?.operator) choices.push({ operator: lookup.operator, wallet: false });
  if (lookup?.wallet) choices.push({ operator: lookup.wallet, wallet: true });
  // The button is there from the start, so the card does not jump when the number is complete:
  // while the payer types it checks the number (as Enter does); after that it pays once it can.
  const canPay = state.status === 'ready' && state.workflow !== null && state.problem?.code !== 'AMOUNT_OUT_OF_RANGE';
  const describedBy = phoneError ? 'phone-hint phone-error' : 'phone-hint';
  return html`<form class="step" novalidate @submit=${(e: Event) => {
      e.preventDefault();
      if (typing) c.number.validateNow(true);
      else c.submit();
    }}>
    <div class="field">
      <label for="phone">${t.phoneLabel}</label>
      <div class="phone-row" dir="ltr">
        <select id="country" aria-label=${t.countryLabel} .value=${c.number.country ?? ''} ?disabled=${busy || countries.length === 0}
          @change=${(e: Event) => c.number.onCountryChange((e.target as HTMLSelectElement).value)}>
          ${countryOptions(countries, ctx.locale).map(
            (country) => html`<option value=${country.code} ?selected=${country.code === c.number.country}>${country.label}</option>`,
          )}
        </select>
        <input id="phone" part="phone-input" type="tel" dir="ltr" data-autofocus autocomplete="tel" inputmode="tel"
          .value=${c.number.typed} ?disabled=${busy} aria-describedby=${describedBy} aria-invalid=${phoneError ? 'true' : 'false'}
          @input=${(e: Event) => c.number.onInput((e.target as HTMLInputElement).value)}
          @blur=${() => c.number.validateNow(true)} />
      </div>
      <p id="phone-hint" class="hint">${t.phoneHint}</p>
      ${phoneError ? html`<p id="phone-error" class="error" part="error">${phoneError}</p>` : nothing}
      ${c.remember.offered && c.remember.showsKept
        ? html`<p class="remembered">
            <button type="button" class="link" ?disabled=${busy} @click=${() => c.useAnotherNumber(false)}>${t.notYou}</button>
            <button type="button" class="link" ?disabled=${busy} @click=${() => c.useAnotherNumber(true)}>${t.forgetNumber}</button>
          </p>`
        : nothing}
    </div>
    ${choices.length === 1 && choices[0]
      ? operatorRow(ctx, choices[0].operator)
      : choices.length === 0 && (c.remember.showsKept || state.status === 'looking-up')
        ? // A number filled in from this device is looked up with no payer action: its operator's
          // row is kept from the first render, so its arrival moves nothing (issue 32). "Looking up…"
          // is shown here (the live region announces it).
          html`<div class="operator operator-pending" aria-hidden="true"><span class="logo logo-placeholder"></span><span class="muted">${state.status === 'looking-up' ? t.lookingUp : ''}</span></div>`
        : nothing}
    ${choices.length > 1
      ? html`<fieldset>
          <legend>${t.chooseHow}</legend>
          ${choices.map(
            (choice) => html`<label class="choice">
              <input type="radio" name="rail" .checked=${state.useWallet === choice.wallet} ?disabled=${busy}
                @change=${() => c.chooseWallet(choice.wallet)} />
              ${logo(ctx, choice.operator)}<span>${t.payWith(choice.operator.name)}</span>
            </label>`,
          )}
        </fieldset>`
      : nothing}
    ${otherProblem ? html`<p class="error" part="error" role="alert">${problemText(t, otherProblem)}${boundsText(ctx, otherProblem)}</p>` : nothing}
    ${rememberBox(ctx, busy)}
    <button class="primary" part="submit-button" type="submit" ?disabled=${!typing && !canPay}
      aria-busy=${busy ? 'true' : 'false'}>${
      // keyed: a new text node when the amount arrives. The same node rewritten "Pay" → "Pay F CFA 5,000"
      // would count as a layout shift (its centred start moves) with no payer action (issue 32).
      keyed(amountText(ctx), state.workflow === 'pre_authorized' ? t.continueButton : t.payButton(isolated(t, amountText(ctx))))
    }</button>
  </form>`;
}

/** The opt-in (issue 23): unticked unless this device already keeps the number shown. */
function rememberBox(ctx: ViewContext, busy: boolean): TemplateResult | typeof nothing {
  const { c, t } = ctx;
  if (!c.remember.offered) return nothing;
  return html`<div class="remember">
    <input id="remember" type="checkbox" .checked=${c.remember.ticked} ?disabled=${busy} aria-describedby="remember-hint"
      @change=${(e: Event) => c.remember.toggle((e.target as HTMLInputElement).checked)} />
    <label for="remember">${t.rememberNumber}</label>
    <p id="remember-hint" class="hint">${t.rememberHint}</p>
  </div>`;
}

function boundsText(ctx: ViewContext, problem: Problem): string {
  const checkout = ctx.c.state.checkout;
  const min = problem.details?.min;
  if (problem.code !== 'AMOUNT_OUT_OF_RANGE' || !min || !checkout) return '';
  const fmt = (value: string) => formatAmount(value, checkout.currencyCode, ctx.locale, checkout.decimalPlaces ?? undefined);
  const max = problem.details?.max;
  return ` ${ctx.t.amountBounds(isolated(ctx.t, fmt(min)), max ? isolated(ctx.t, fmt(max)) : null)}`;
}

/** needs-otp, and submitting with the OTP. */
export function otpStep(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  const { state } = c;
  const busy = state.status === 'submitting';
  const operator = state.useWallet ? state.lookup?.wallet : state.lookup?.operator;
  const text = state.payment?.state === 'needs-otp' && state.payment.instructions ? state.payment.instructions : (operator?.instructions ?? null);
  const refused = state.problem?.code === 'OTP_REFUSED' ? problemText(t, state.problem) : null;
  return html`<div class="step">
    ${heading(t.otpHeading)}
    ${operator ? operatorRow(ctx, operator) : nothing}
    ${instructionsView(ctx, text)}
    <form class="step" novalidate @submit=${(e: Event) => {
      e.preventDefault();
      c.submit();
    }}>
      <div class="field">
        <label for="otp">${t.otpLabel}</label>
        <input id="otp" part="otp-input" autocomplete="one-time-code" .value=${c.otp} ?disabled=${busy}
          aria-describedby=${refused ? 'otp-hint otp-error' : 'otp-hint'} aria-invalid=${refused ? 'true' : 'false'}
          @input=${(e: Event) => (c.otp = (e.target as HTMLInputElement).value)} />
        <p id="otp-hint" class="hint">${t.otpHint}</p>
        ${refused ? html`<p id="otp-error" class="error" part="error">${refused}</p>` : nothing}
      </div>
      ${state.problem && !refused ? html`<p class="error" part="error" role="alert">${problemText(t, state.problem)}</p>` : nothing}
      <button class="primary" part="submit-button" type="submit" ?disabled=${busy} aria-busy=${busy ? 'true' : 'false'}>
        ${t.payButton(isolated(t, amountText(ctx)))}
      </button>
      <button class="link" type="button" ?disabled=${busy} @click=${() => c.changeNumber()}>${t.changeNumber}</button>
    </form>
  </div>`;
}

function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The service has no way to withdraw a pay-in, and the companion answers a second one for the
 * order with the request under way: the payer is told how a wrong number ends instead of being
 * offered an edit that would only bring the same request back.
 */
function wrongNumber(t: Strings): TemplateResult {
  return html`<details class="wrong-number"><summary>${t.wrongNumberQuestion}</summary><p class="muted">${t.wrongNumberBody}</p></details>`;
}

export function approvalStep(ctx: ViewContext, promptHelpAfterSeconds: number): TemplateResult {
  const { c, t } = ctx;
  const payment = c.state.payment;
  const remaining = c.clock.deadline === null ? 0 : c.clock.deadline - c.clock.now;
  const showHelp = c.clock.pushSince !== null && c.clock.now - c.clock.pushSince >= promptHelpAfterSeconds * 1000;
  return html`<div class="step">
    ${heading(t.approveHeading)}
    ${payment?.operator ? operatorRow(ctx, payment.operator) : nothing}
    <p>${t.approveBody(leftToRight(t, payment?.phoneNumberMasked ?? ''))}</p>
    <p class="waiting"><span class="spinner" aria-hidden="true"></span><span class="countdown">${t.timeLeft(formatRemaining(remaining))}</span></p>
    ${wrongNumber(t)}
    ${showHelp
      ? html`<div class="step"><h3>${t.noPromptHeading}</h3><p class="muted">${t.noPromptBody}</p></div>`
      : nothing}
  </div>`;
}

export function waitingStep(text: string): TemplateResult {
  return html`<div class="step operator"><span class="spinner" aria-hidden="true"></span>${heading(text)}</div>`;
}

function hostOf(url: string | null | undefined): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return ''; // not a URL: the controller refuses to navigate there and shows its problem instead
  }
}

/** Leaving for the approval page: the payer sees where they are going before the page changes. */
export function redirectingStep(ctx: ViewContext): TemplateResult {
  const url = ctx.c.state.payment?.authorizationUrl;
  const host = hostOf(url);
  if (url && ctx.c.approval.handoff?.url === url) return phoneHandoffStep(ctx, url, host);
  return html`<div class="step">
    ${waitingStep(ctx.t.redirecting)}
    ${host ? html`<p class="muted redirect-host">${ctx.t.continueOn(leftToRight(ctx.t, host))}</p>` : nothing}
  </div>`;
}

/**
 * At a desktop (issue 23): the approval page as a QR code for the phone, where the wallet is, and
 * the same page one link away on this device (the keyboard's way, and a screen reader's: the QR's
 * text alternative names the host). The status stream finishes the checkout either way.
 */
function phoneHandoffStep(ctx: ViewContext, url: string, host: string): TemplateResult {
  const { c, t } = ctx;
  const qr = c.approval.handoff?.qr;
  return html`<div class="step handoff">
    ${heading(t.scanHeading)}
    <p>${t.scanBody}</p>
    ${qr
      ? svg`<svg class="qr" role="img" aria-label=${t.qrAlt(leftToRight(t, host))} viewBox="-4 -4 ${qr.size + 8} ${qr.size + 8}"><rect x="-4" y="-4" width="100%" height="100%" fill="#fff"/><path d=${qr.path}/></svg>`
      : nothing}
    <p class="muted redirect-host">${t.continueOn(leftToRight(t, host))}</p>
    <a class="continue-here" href=${url} @click=${(e: Event) => {
      e.preventDefault();
      c.approval.continueHere(url);
    }}>${t.continueHere}</a>
    <p class="waiting"><span class="spinner" aria-hidden="true"></span><span class="muted">${t.keepOpen}</span></p>
  </div>`;
}

function orderId(ctx: ViewContext): string {
  return ctx.c.state.payment?.orderId ?? ctx.c.state.checkout?.orderId ?? '';
}

/** The order reference, with a Copy button like the dial codes': the payer may need to quote it. */
function referenceLine(ctx: ViewContext): TemplateResult {
  const { t } = ctx;
  const reference = orderId(ctx);
  return html`<p class="reference-line">
    ${t.reference('')}<bdi class="reference">${reference}</bdi>
    <button type="button" class="copy" @click=${() => ctx.onCopy(reference)}>
      ${ctx.copiedCode === reference ? t.copied : t.copy}<span class="visually-hidden"> ${reference}</span>
    </button>
  </p>`;
}

export function succeededStep(ctx: ViewContext): TemplateResult {
  const { t } = ctx;
  return html`<div class="step succeeded">
    ${heading(t.succeededHeading)}
    <p>${t.succeededBody(isolated(t, amountText(ctx)))}</p>
    ${referenceLine(ctx)}
    <p class="muted">${t.succeededNext}</p>
  </div>`;
}

export function failedStep(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  return html`<div class="step failed">
    ${heading(t.failedHeading)}
    <p>${t.failedBody}</p>
    ${c.state.payment?.canRetry
      ? html`<button class="primary" type="button" @click=${() => c.tryAgain()}>${t.tryAgain}</button>`
      : html`<p>${t.failedNoRetry}</p>`}
  </div>`;
}

export function expiredStep(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  return html`<div class="step">
    ${heading(t.expiredHeading)}
    <p>${t.expiredBody}</p>
    ${referenceLine(ctx)}
    <button type="button" @click=${() => c.retry()}>${t.checkAgain}</button>
  </div>`;
}

/**
 * Problems whose text sends the payer back to the shop: loading the checkout again gives the same
 * answer, so a "Try again" button would contradict the text and cannot succeed.
 */
const retryCannotHelp: ReadonlySet<Problem['code']> = new Set([
  'TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'ORIGIN_NOT_ALLOWED', 'ENDPOINT_MISSING',
  'ORDER_NOT_PAYABLE', 'AMOUNT_PRECISION', 'ALREADY_PAID',
]);

export function errorStep(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  const problem = c.state.problem ?? { code: 'NETWORK' as const };
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return html`<div class="step problem">
    ${heading(t.errorHeading)}
    <p part="error">${problemText(t, problem)}</p>
    ${offline ? html`<p class="muted">${t.offline}</p>` : nothing}
    ${retryCannotHelp.has(problem.code) ? nothing : html`<button class="primary" type="button" @click=${() => c.retry()}>${t.retry}</button>`}
  </div>`;
}
