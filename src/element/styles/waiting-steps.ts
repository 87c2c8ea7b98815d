import { css } from 'lit';

/**
 * The waiting steps: the push approval's countdown and "wrong number?", the spinner, and the
 * approval page offered to the phone (QR code) or continued here.
 */
export const waitingStepStyles = css`
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
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
`;
