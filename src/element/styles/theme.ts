import { css } from 'lit';

/**
 * The theme's tokens and what every step shares: the host's size, the card, headings and text, the
 * grid a step is laid out in, labels, hints and errors. Component tokens fall back to the site-wide
 * ones (`--momo-checkout-*` → `--momo-*` → default), as material-web does.
 */
export const themeStyles = css`
  :host {
    --_primary: var(--momo-checkout-color-primary, var(--momo-color-primary, #0b6b4f));
    --_on-primary: var(--momo-checkout-color-on-primary, var(--momo-color-on-primary, #ffffff));
    --_surface: var(--momo-checkout-color-surface, var(--momo-color-surface, #ffffff));
    --_text: var(--momo-checkout-color-text, var(--momo-color-text, #1b1f1d));
    --_muted: var(--momo-checkout-color-muted, var(--momo-color-muted, #545d59));
    --_border: var(--momo-checkout-color-border, var(--momo-color-border, #8a9490));
    --_error: var(--momo-checkout-color-error, var(--momo-color-error, #b3261e));
    --_success: var(--momo-checkout-color-success, var(--momo-color-success, #146c2e));
    --_radius: var(--momo-checkout-radius, var(--momo-radius, 12px));
    --_font: var(--momo-checkout-font-family, var(--momo-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif));
    --_gap: var(--momo-checkout-spacing, var(--momo-spacing, 1rem));
    /* Unset, color-scheme inherits the page's; a dark theme sets it so native controls (radios, the
       country list) are drawn dark too. */
    color-scheme: var(--momo-checkout-color-scheme, var(--momo-color-scheme));
    accent-color: var(--_primary);
    display: block;
    /* The height docs/embedding.md's momo-checkout:not(:defined) rule reserves (issue 32): the
       element keeps it from its first paint, so the merchant's page below never moves while it
       upgrades and loads. The number step fits in it (320 px, every language); the card sits at the top.
       Released once the payer presses Pay (momo-checkout.ts, willUpdate). */
    min-height: var(--momo-checkout-min-height, 27rem);
    width: 100%;
    max-width: var(--momo-checkout-max-width, 28rem);
    /* The layout follows the element's own width, not the window's: a merchant's narrow column at
       desktop width gets the 320 px layout. (width: 100% keeps it from collapsing in a flex row.) */
    container-type: inline-size;
    font-family: var(--_font);
    color: var(--_text);
    line-height: 1.45;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  .base {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: var(--_gap);
    display: grid;
    gap: var(--_gap);
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .language-pending {
    /* Its language's file is on its way (issue 32): no flash of English, the space stays kept. */
    visibility: hidden;
  }
  .status-line {
    /* Below the form in the number step: "Loading…" or "Looking up…" coming and going moves nothing. */
    order: 1;
  }
  .amount {
    min-height: calc(1.5rem * 1.45);
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
  }
  .amount-value {
    font-size: 1.5rem;
    font-weight: 700;
  }
  h2 {
    font-size: 1.125rem;
    margin: 0;
  }
  h2:focus {
    outline: none;
  }
  h2:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
  }
  p {
    margin: 0;
  }
  form,
  .step {
    display: grid;
    gap: calc(var(--_gap) * 0.75);
    min-width: 0;
  }
  label,
  legend {
    font-weight: 600;
  }
  legend {
    /* A legend's default padding would set the question off the other labels. */
    padding: 0;
  }
  .hint,
  .muted {
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .error {
    color: var(--_error);
    font-size: 0.875rem;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
    }
  }
`;
