import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Status } from '../../machine/states.js';

/** What the clock needs from the element. */
export interface WaitingClockHost extends ReactiveControllerHost {
  /** Seconds of waiting for an outcome before the checkout says it is overdue. */
  expirySeconds: number;
}

/**
 * The clock of the waiting steps: when waiting began, when the outcome is overdue, and the second
 * that the countdown shows. Its own controller (Lit's `addController`) so that its timers stop with
 * the element, and the checkout controller only says when waiting starts and ends.
 */
export class WaitingClock implements ReactiveController {
  /** Epoch ms when an outcome is overdue ("expired"); null when not waiting. */
  deadline: number | null = null;
  /** Epoch ms when waiting for a push approval began (the "didn't get the prompt?" help follows it). */
  pushSince: number | null = null;
  now = Date.now();

  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly host: WaitingClockHost,
    private readonly onOverdue: () => void,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Entering a waiting step: the deadline is set once per wait, however many waiting steps follow. */
  start(status: Status): void {
    this.now = Date.now();
    if (status === 'awaiting-approval') this.pushSince ??= this.now;
    if (this.deadline !== null) return;
    this.deadline = this.now + this.host.expirySeconds * 1000;
    this.expiryTimer = setTimeout(this.onOverdue, this.host.expirySeconds * 1000);
    // The visible countdown; a second is the finest anyone reads.
    this.ticker = setInterval(() => {
      this.now = Date.now();
      this.host.requestUpdate();
    }, 1000);
  }

  stop(): void {
    clearTimeout(this.expiryTimer);
    clearInterval(this.ticker);
    this.deadline = null;
    this.pushSince = null;
  }
}
