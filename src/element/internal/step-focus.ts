/**
 * Where the keyboard focus goes when the checkout shows a new step: to the step's heading or field
 * (`[data-autofocus]`), so a keyboard or screen-reader payer is not left on a button that vanished
 * (issue 4 §1, accessibility). Only when the payer was working in the element (the focus was in
 * it) or asked for the step themselves: the checkout never pulls the focus away from the page.
 * Its own controller because the focus can move only once Lit has rendered the step (`hostUpdated`).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Status } from '../../machine/states.js';

/** What the focus needs from the element. */
export interface StepFocusHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** Steps that take focus to their heading or field when the payer was working in the element. */
const focusSteps: readonly Status[] = [
  'needs-otp', 'awaiting-approval', 'awaiting-redirect', 'redirecting', 'approval-unavailable', 'confirming', 'checking',
  'succeeded', 'failed', 'expired', 'error',
];

export class StepFocus implements ReactiveController {
  private pending = false;

  constructor(private readonly host: StepFocusHost) {
    host.addController(this);
  }

  /** The checkout moved to `status`: its step takes the focus after the next render, or nothing does. */
  onStep(status: Status): void {
    this.pending = focusSteps.includes(status) && this.host.matches(':focus-within');
  }

  /** The payer asked for a step ("change number", "try again"): its field takes the focus. */
  request(): void {
    this.pending = true;
  }

  hostUpdated(): void {
    if (!this.pending) return;
    this.pending = false;
    const target = this.host.renderRoot.querySelector<HTMLElement>('[data-autofocus]');
    target?.focus();
  }
}
