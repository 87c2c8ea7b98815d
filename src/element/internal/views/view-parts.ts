/**
 * What every step's view is drawn with: the context a view reads (views are pure functions of it),
 * the amount and problem texts, the focusable step heading, and the operator's logo and row.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { formatAmount } from '../../../contract/money.js';
import type { Strings } from '../../../localize/en.js';
import type { Problem } from '../../../machine/events.js';
import { isAllowedLogo } from '../../urls.js';
import type { CheckoutController } from '../checkout-controller.js';

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

export function heading(text: string): TemplateResult {
  // tabindex=-1: focus moves here when a new step appears (issue 4 §1, accessibility).
  return html`<h2 tabindex="-1" data-autofocus>${text}</h2>`;
}

export function logo(ctx: ViewContext, operator: { name: string; logoUrl: string }): TemplateResult {
  const page = typeof location === 'undefined' ? undefined : location.href;
  const usable = isAllowedLogo(operator.logoUrl, ctx.endpoint || undefined, page) && !ctx.brokenLogos.has(operator.logoUrl);
  // The name is printed beside the logo, so the image is decorative (alt="").
  return usable
    ? html`<img class="logo" src=${operator.logoUrl} alt="" @error=${() => ctx.onLogoError(operator.logoUrl)} />`
    : html`<span class="logo logo-placeholder" aria-hidden="true">${operator.name.slice(0, 1).toUpperCase()}</span>`;
}

export function operatorRow(ctx: ViewContext, operator: { name: string; logoUrl: string }): TemplateResult {
  return html`<div class="operator" part="operator">${logo(ctx, operator)}<span>${operator.name}</span></div>`;
}
