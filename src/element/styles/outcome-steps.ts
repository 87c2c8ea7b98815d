import { css } from 'lit';

/** The outcomes: paid, failed or in error headings, and the order reference line. */
export const outcomeStepStyles = css`
  .reference-line {
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: 0.25rem 0.5rem;
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
`;
