/**
 * The number step's view: the country and number, the operator found (or the choice between the
 * operator and its wallet), the remember option and the pay button.
 */
import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { TemplateResult } from 'lit';
import type { OperatorView } from '../../../contract/companion.js';
import { formatAmount } from '../../../contract/money.js';
import type { Problem } from '../../../machine/events.js';
import { isolated } from '../../bidi.js';
import { countryOptions } from '../../country-names.js';
import { amountText, logo, operatorRow, problemText } from './view-parts.js';
import type { ViewContext } from './view-parts.js';

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
