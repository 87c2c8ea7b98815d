/**
 * The views of the waiting steps: the push approval with its countdown, the plain waits, and the
 * redirect to the approval page (or at a desktop, its hand-off to the phone as a QR code).
 */
import { html, nothing, svg } from 'lit';
import type { TemplateResult } from 'lit';
import type { Strings } from '../../../localize/en.js';
import { leftToRight } from '../../bidi.js';
import { heading, operatorRow } from './view-parts.js';
import type { ViewContext } from './view-parts.js';

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
