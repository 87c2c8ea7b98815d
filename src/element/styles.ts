import { css } from 'lit';

/**
 * The default theme. Only adopted stylesheets (Lit `static styles`): they work under a strict CSP
 * with no 'unsafe-inline' styles. Component tokens fall back to the site-wide ones
 * (`--momo-checkout-*` → `--momo-*` → default), as material-web does.
 */
export const styles = css`
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
       upgrades and loads. The number step fits in it (320 px, every language); the card sits at the top. */
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
  .field {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
  }
  .phone-row {
    display: grid;
    /* A fixed share, not the widest country's name: the field must not move when the checkout's
       countries replace the first guess (a layout shift, issue 32). */
    grid-template-columns: minmax(0, min(12rem, 40%)) minmax(0, 1fr);
    gap: 0.5rem;
  }
  input,
  select,
  button {
    font: inherit;
    min-height: 2.75rem;
    border-radius: calc(var(--_radius) * 0.67);
    min-width: 0;
    width: 100%;
  }
  input,
  select {
    border: 1px solid var(--_border);
    padding: 0.5rem 0.75rem;
    background: var(--_surface);
    color: var(--_text);
  }
  input[aria-invalid='true'] {
    border-color: var(--_error);
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible,
  summary:focus-visible,
  a:focus-visible {
    outline: 3px solid var(--_primary);
    outline-offset: 2px;
  }
  button {
    cursor: pointer;
    border: 1px solid var(--_primary);
    background: var(--_surface);
    color: var(--_primary);
    padding: 0.5rem 1rem;
    font-weight: 600;
  }
  button.primary {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button.link {
    border: none;
    background: none;
    min-height: auto;
    width: auto;
    padding: 0.25rem 0;
    justify-self: start;
    text-decoration: underline;
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
  .operator {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    min-width: 0;
  }
  .logo {
    width: 2.5rem;
    height: 2.5rem;
    flex: none;
    border-radius: 50%;
    object-fit: contain;
    background: var(--_surface);
    border: 1px solid var(--_border);
  }
  .operator-pending .logo-placeholder {
    border-style: dashed;
  }
  .logo-placeholder {
    display: grid;
    place-items: center;
    font-weight: 700;
    color: var(--_muted);
  }
  fieldset {
    border: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
    min-width: 0;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.67);
    padding: 0.5rem 0.75rem;
    font-weight: 500;
  }
  .choice input {
    /* Never squeezed by a long French label at 320 px. */
    flex: none;
    width: 1.25rem;
    height: 1.25rem;
    min-height: auto;
    margin: 0;
  }
  .choice:has(input:checked) {
    border-color: var(--_primary);
    box-shadow: inset 0 0 0 1px var(--_primary);
    background: color-mix(in srgb, var(--_primary) 8%, var(--_surface));
  }
  .instructions {
    background: color-mix(in srgb, var(--_primary) 8%, var(--_surface));
    border-radius: calc(var(--_radius) * 0.67);
    padding: 0.75rem;
  }
  .ussd {
    display: inline-flex;
    align-items: center;
    /* Room for the focus rings (3px + 2px offset) so they never cover the words around them. */
    gap: 0.5rem;
    margin: 0.25rem 0.375rem;
    flex-wrap: wrap;
  }
  .reference-line {
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: 0.25rem 0.5rem;
  }
  .ussd a {
    color: var(--_primary);
    font-weight: 700;
  }
  button.copy {
    width: auto;
    min-height: 2rem;
    padding: 0.125rem 0.5rem;
    font-size: 0.875rem;
  }
  .wrong-number summary {
    cursor: pointer;
    color: var(--_primary);
    font-weight: 600;
    /* About as tall as a Copy button: a finger finds it on a phone. */
    padding: 0.375rem 0;
  }
  .waiting {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .countdown {
    /* Below the heading (1.125rem) in weight: the heading says what to do, this how long is left. */
    font-variant-numeric: tabular-nums;
    font-weight: 600;
  }
  .succeeded h2 {
    color: var(--_success);
  }
  .failed h2,
  .problem h2 {
    color: var(--_error);
  }
  .reference {
    font-family: ui-monospace, monospace;
    font-weight: 700;
  }
  .spinner {
    /* flex: none: beside a heading that wraps, a shrinkable spinner turns into an oval. */
    flex: none;
    width: 1.5rem;
    height: 1.5rem;
    /* The track in the border colour, which themes keep at 3:1 against the card (WCAG 1.4.11). */
    border: 3px solid var(--_border);
    border-top-color: var(--_primary);
    border-radius: 50%;
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .remember {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    align-items: center;
    gap: 0.125rem 0.5rem;
  }
  .remember input {
    width: 1.25rem;
    height: 1.25rem;
    min-height: auto;
    margin: 0;
  }
  .remember label {
    font-weight: 500;
  }
  .remember .hint {
    grid-column: 2;
  }
  .remembered {
    display: grid;
    justify-items: start;
  }
  .remembered button.link {
    /* Two short lines read as links, not as centred buttons. */
    text-align: start;
  }
  .qr {
    /* Dark on white whatever the theme: cameras read a light quiet zone around dark modules. */
    width: 12rem;
    max-width: 100%;
    justify-self: center;
    fill: #000;
    border-radius: calc(var(--_radius) * 0.67);
  }
  .continue-here {
    color: var(--_primary);
    font-weight: 600;
    justify-self: start;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @container (max-width: 22rem) {
    .phone-row {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
    * {
      transition: none !important;
    }
  }
`;
