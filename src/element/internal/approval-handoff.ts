/**
 * The hand-off to the approval page a redirect payment needs (`redirecting`): leave for it in this
 * tab, or at a desktop offer it to the payer's phone as a QR code and stay (issue 23), following the
 * status stream, which finishes the checkout either way. It owns the one guard that matters here:
 * the same news twice means one navigation and one QR, and only a URL the redirect policy allows
 * (urls.ts) is ever opened or drawn.
 *
 * Not a registered controller: it has no timers or listeners of its own. The QR request runs under
 * the checkout run's AbortSignal, which the checkout controller aborts when it stops.
 */
import type { ReactiveControllerHost } from 'lit';
import type { ApprovalQrView } from '../../contract/companion.js';
import type { CompanionClient } from '../../client/types.js';
import type { CheckoutEvent } from '../../machine/events.js';
import type { MachineState } from '../../machine/machine.js';
import { isAllowedRedirect } from '../urls.js';

/** What the hand-off needs from the element. */
export interface ApprovalHandoffHost extends ReactiveControllerHost {
  endpoint: string;
  navigate: (url: string) => void;
  phoneHandoff: () => boolean;
}

/** What the hand-off needs from the checkout: its state, and a way to move it. */
export interface ApprovalHandoffCheckout {
  readonly state: MachineState;
  dispatch(event: CheckoutEvent): boolean;
}

export class ApprovalHandoff {
  /** The approval page offered to the payer's phone, and its QR once the companion has drawn it. */
  handoff: { url: string; qr: ApprovalQrView | null } | null = null;
  private navigatedTo: string | null = null;

  constructor(
    private readonly host: ApprovalHandoffHost,
    private readonly checkout: ApprovalHandoffCheckout,
  ) {}

  /** A new start of the checkout: no page is offered to the phone any more. */
  reset(): void {
    this.handoff = null;
  }

  /** Entering (or re-entering) `redirecting`: go, offer the page to the phone, or refuse the URL. */
  redirect(client: CompanionClient | undefined, signal: AbortSignal): void {
    const url = this.checkout.state.payment?.authorizationUrl;
    if (!url) return; // the URL has not come yet: keep waiting
    const page = typeof location === 'undefined' ? undefined : location.href;
    if (!isAllowedRedirect(url, this.host.endpoint || undefined, page)) {
      this.checkout.dispatch({ type: 'REDIRECT_REFUSED' });
      return;
    }
    if (this.navigatedTo === url || this.handoff?.url === url) return; // the same news twice: one navigation, one QR
    if (this.host.phoneHandoff()) {
      // Issue 23: at a desktop, offer the page to the phone (QR) and stay here, following the status
      // stream, which finishes the checkout as it does after a return from the page.
      this.handoff = { url, qr: null };
      void this.drawQr(url, client, signal);
      return;
    }
    this.continueHere(url);
  }

  /** Leaves for the approval page in this tab: the redirect itself, or the payer's "continue on this device". */
  continueHere(url: string): void {
    this.navigatedTo = url;
    this.host.navigate(url);
  }

  private async drawQr(url: string, client: CompanionClient | undefined, signal: AbortSignal): Promise<void> {
    try {
      const qr = await client?.approvalQr?.(signal);
      // Only a drawing of the address the payer is shown (and the policy allowed) is ever displayed.
      if (!signal.aborted && qr?.url === url && this.handoff?.url === url) {
        this.handoff = { url, qr };
        this.host.requestUpdate();
      }
    } catch {
      // No QR (an older companion, a network blip): the "continue on this device" link still works.
    }
  }
}
