/**
 * The OTP step's view: how to get the payment code (the operator's instructions, with the USSD
 * codes to dial or copy) and the field to type it in.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { isolated } from '../../bidi.js';
import { splitInstructions } from '../../instructions.js';
import { amountText, heading, operatorRow, problemText } from './view-parts.js';
import type { ViewContext } from './view-parts.js';

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
