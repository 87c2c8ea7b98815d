/**
 * The console's shared styles: the element's design tokens (console.css maps them to
 * `--momo-console-*`), adopted stylesheets only (the CSP allows no inline style), a layout that
 * holds at 320 px (tables scroll sideways in their own box, never the page).
 */
import { css } from 'lit';

export const consoleStyles = css`
  :host {
    display: block;
    color: var(--momo-console-text, #1b1f1d);
    font-family: var(--momo-console-font, system-ui, sans-serif);
  }
  * {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3 {
    line-height: 1.2;
    margin: 1rem 0 0.5rem;
  }
  h2 {
    font-size: 1.25rem;
  }
  h3 {
    font-size: 1.05rem;
  }
  a {
    color: var(--momo-console-primary, #0b6b4f);
  }
  button,
  input,
  select {
    font: inherit;
    min-height: 2.5rem;
  }
  button {
    padding: 0.4rem 0.9rem;
    border-radius: 8px;
    border: 1px solid var(--momo-console-primary, #0b6b4f);
    background: var(--momo-console-primary, #0b6b4f);
    color: var(--momo-console-on-primary, #fff);
    cursor: pointer;
  }
  button.secondary {
    background: var(--momo-console-surface, #fff);
    color: var(--momo-console-primary, #0b6b4f);
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  input,
  select {
    padding: 0.3rem 0.5rem;
    border: 1px solid var(--momo-console-border, #8a9490);
    border-radius: 8px;
    background: var(--momo-console-surface, #fff);
    color: inherit;
    min-width: 0;
  }
  :focus-visible {
    outline: 3px solid var(--momo-console-primary, #0b6b4f);
    outline-offset: 2px;
  }
  .card {
    background: var(--momo-console-surface, #fff);
    border: 1px solid var(--momo-console-border, #8a9490);
    border-radius: var(--momo-console-radius, 12px);
    padding: 0.75rem 1rem;
    margin: 0 0 1rem;
  }
  .scroll {
    overflow-x: auto;
    max-width: 100%;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  caption {
    text-align: start;
    color: var(--momo-console-muted, #545d59);
    padding-bottom: 0.3rem;
  }
  th,
  td {
    text-align: start;
    padding: 0.35rem 0.5rem;
    border-bottom: 1px solid #d5dbd8;
    vertical-align: top;
  }
  .muted {
    color: var(--momo-console-muted, #545d59);
  }
  .bad {
    color: var(--momo-console-error, #b3261e);
    font-weight: 600;
  }
  .good {
    color: var(--momo-console-success, #146c2e);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: end;
  }
  .field {
    display: grid;
    gap: 0.2rem;
    min-width: 0;
  }
`;
