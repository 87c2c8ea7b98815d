import { css } from 'lit';

/** The OTP step: the operator's instructions, with USSD codes to dial or copy. */
export const otpStepStyles = css`
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
  .ussd a {
    color: var(--_primary);
    font-weight: 700;
  }
`;
