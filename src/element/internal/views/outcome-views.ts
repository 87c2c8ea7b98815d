/**
 * The views of the outcomes: paid, failed, expired (no answer in time) and the error step, with the
 * order reference the payer may need to quote.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Problem } from '../../../machine/events.js';
import { isolated } from '../../bidi.js';
import { amountText, heading, problemText } from './view-parts.js';
import type { ViewContext } from './view-parts.js';

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

/** "Try another number or operator" while the payment allows another attempt, else back to the shop. */
function anotherWay(ctx: ViewContext): TemplateResult {
  const { c, t } = ctx;
  return c.state.payment?.canRetry
    ? html`<button class="primary" type="button" @click=${() => c.tryAgain()}>${t.tryAgain}</button>`
    : html`<p>${t.failedNoRetry}</p>`;
}

export function failedStep(ctx: ViewContext): TemplateResult {
  const { t } = ctx;
  return html`<div class="step failed">
    ${heading(t.failedHeading)}
    <p>${t.failedBody}</p>
    ${anotherWay(ctx)}
  </div>`;
}

/**
 * The approval page could not be sent to the payer (the companion refused it): this way of paying
 * is unavailable. Not "failed": the attempt is left to expire at the service, and nothing was paid.
 */
export function approvalUnavailableStep(ctx: ViewContext): TemplateResult {
  const { t } = ctx;
  return html`<div class="step failed">
    ${heading(t.approvalUnavailableHeading)}
    <p>${t.approvalUnavailableBody}</p>
    ${anotherWay(ctx)}
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
