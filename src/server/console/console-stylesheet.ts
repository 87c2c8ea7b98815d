/**
 * The console page's own stylesheet (served as `console/assets/console.css`, the CSP allows no inline
 * style): the element's design tokens with their defaults, so a merchant's brand colours set on
 * `--momo-*` reach the console as they reach the checkout. The console's elements style themselves.
 */
export const consoleStylesheet = `
:root {
  --momo-console-primary: var(--momo-color-primary, #0b6b4f);
  --momo-console-on-primary: var(--momo-color-on-primary, #ffffff);
  --momo-console-surface: var(--momo-color-surface, #ffffff);
  --momo-console-text: var(--momo-color-text, #1b1f1d);
  --momo-console-muted: var(--momo-color-muted, #545d59);
  --momo-console-border: var(--momo-color-border, #8a9490);
  --momo-console-error: var(--momo-color-error, #b3261e);
  --momo-console-success: var(--momo-color-success, #146c2e);
  --momo-console-radius: var(--momo-radius, 12px);
  --momo-console-font: var(--momo-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
}
* { box-sizing: border-box; }
body { margin: 0; font-family: var(--momo-console-font); color: var(--momo-console-text); background: #f4f6f5; line-height: 1.45; }
.sign-in { max-width: 28rem; margin: 2rem auto; padding: 1.5rem 1rem; background: var(--momo-console-surface); border: 1px solid var(--momo-console-border); border-radius: var(--momo-console-radius); }
.sign-in h1 { margin-top: 0; font-size: 1.4rem; }
.sign-in form { display: grid; gap: 0.5rem; }
.sign-in input { font: inherit; padding: 0.6rem; border: 1px solid var(--momo-console-border); border-radius: 8px; min-width: 0; }
.sign-in button { font: inherit; padding: 0.7rem; border: 0; border-radius: 8px; background: var(--momo-console-primary); color: var(--momo-console-on-primary); cursor: pointer; }
.sign-in a { color: var(--momo-console-primary); }
:focus-visible { outline: 3px solid var(--momo-console-primary); outline-offset: 2px; }
.problem { color: var(--momo-console-error); font-weight: 600; }
`;
