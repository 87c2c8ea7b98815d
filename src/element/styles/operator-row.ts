import { css } from 'lit';

/**
 * The operator's logo and name (views/view-parts.ts `operatorRow`), shown in the number, OTP,
 * approval and waiting steps. After the theme: a waiting step is `.step.operator`, and the row's
 * flex wins over the step's grid by coming later.
 */
export const operatorRowStyles = css`
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
`;
