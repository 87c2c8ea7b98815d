import { css } from 'lit';

/**
 * The number step: the country and number row, the choice between the operator and its wallet,
 * and the remember option.
 */
export const numberStepStyles = css`
  .phone-row {
    display: grid;
    /* A fixed share, not the widest country's name: the field must not move when the checkout's
       countries replace the first guess (a layout shift, issue 32). */
    grid-template-columns: minmax(0, min(12rem, 40%)) minmax(0, 1fr);
    gap: 0.5rem;
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
  @container (max-width: 22rem) {
    .phone-row {
      grid-template-columns: minmax(0, 1fr);
    }
  }
`;
