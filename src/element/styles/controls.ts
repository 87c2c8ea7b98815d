import { css } from 'lit';

/** The form controls of every step: fields, the country list, buttons (primary, link, copy), focus rings. */
export const controlStyles = css`
  .field {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
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
  button.copy {
    width: auto;
    min-height: 2rem;
    padding: 0.125rem 0.5rem;
    font-size: 0.875rem;
  }
`;
