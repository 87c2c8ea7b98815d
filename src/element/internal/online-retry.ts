/**
 * The browser's network going and coming back. Offline: the error step says so (the element
 * renders again and reads `navigator.onLine`). Back online: a request that failed for want of a
 * network is tried again by itself. "Try again" reloads the checkout, which carries any payment
 * already started, so it never starts a second pay-in (the companion's pay-in lock holds that too).
 * Its own controller because its window listeners live exactly as long as the element is connected.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MachineState } from '../../machine/machine.js';

/** What the retry needs from the checkout: its state, and "try again". */
export interface OnlineRetryCheckout {
  readonly state: MachineState;
  retry(): void;
}

/** Problems that coming back online may cure: the element tries again by itself then. */
const networkProblems: readonly string[] = ['NETWORK', 'ENDPOINT_UNREACHABLE', 'SERVICE_UNAVAILABLE'];

export class OnlineRetry implements ReactiveController {
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly checkout: OnlineRetryCheckout,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('online', this.onNetworkChange);
    window.addEventListener('offline', this.onNetworkChange);
  }

  hostDisconnected(): void {
    window.removeEventListener('online', this.onNetworkChange);
    window.removeEventListener('offline', this.onNetworkChange);
  }

  private readonly onNetworkChange = (event: Event): void => {
    const { status, problem } = this.checkout.state;
    if (event.type === 'online' && status === 'error' && problem && networkProblems.includes(problem.code)) this.checkout.retry();
    else this.host.requestUpdate();
  };
}
