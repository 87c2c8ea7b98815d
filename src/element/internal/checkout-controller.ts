import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PaymentView } from '../../contract/companion.js';
import { isAbort } from '../../client/companion-request.js';
import { createFetchClient } from '../../client/fetch-client.js';
import type { CompanionClient } from '../../client/types.js';
import { eventForCheckout, eventForPayment } from '../../machine/events.js';
import type { CheckoutEvent } from '../../machine/events.js';
import { initialState, next } from '../../machine/machine.js';
import type { MachineState } from '../../machine/machine.js';
import type { Status } from '../../machine/states.js';
import { en } from '../../localize/en.js';
import { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../events.js';
import { ApprovalHandoff, type ApprovalHandoffHost } from './approval-handoff.js';
import { embeddedView } from './embedded-view.js';
import { NumberLookups } from './number-lookups.js';
import { NumberStep, type NumberStepHost } from './number-step.js';
import { OnlineRetry } from './online-retry.js';
import { payRepostBoundMs, waitToRepost } from './pay-repost.js';
import { problemOf, setupProblem } from './problems.js';
import { RememberNumber, type RememberHost } from './remember-number.js';
import { StepFocus, type StepFocusHost } from './step-focus.js';
import { WaitingClock, type WaitingClockHost } from './waiting-clock.js';

/** What the controller needs from the element (kept small so the element stays a thin shell). */
export interface CheckoutHost extends ReactiveControllerHost, HTMLElement, NumberStepHost, WaitingClockHost, RememberHost, ApprovalHandoffHost, StepFocusHost {
  endpoint: string;
  token: string;
  /** The checkout's view rendered into the page (JSON), used for the first load instead of a request. */
  checkoutView: string;
  client: CompanionClient | undefined;
  /** Seconds of push waiting before "didn't get the prompt?" shows. */
  promptHelpAfterSeconds: number;
  /** How long to wait for a missing `endpoint`/`token` before telling the payer and the console. */
  setupWaitMs: number;
}

const waitingStatuses: readonly Status[] = ['awaiting-approval', 'awaiting-redirect', 'redirecting', 'confirming', 'checking'];

/**
 * The controller of `<momo-checkout>`: holds the machine state, runs the effects each state asks
 * for (requests, the status stream, navigation) and calls `requestUpdate()`. Results of a
 * superseded run are dropped: every run has an AbortSignal. It wires its siblings, which hold the
 * rest: the number step (what is typed, its country, the payer's mistake), the remembered number,
 * the number's lookups and previews (number-lookups.ts), the waiting clock, the approval hand-off
 * (redirect or QR), where the focus goes, and the retry when the network comes back.
 */
export class CheckoutController implements ReactiveController {
  state: MachineState = initialState;
  otp = '';
  otpSent = false;
  readonly number: NumberStep;
  readonly clock: WaitingClock;
  readonly remember: RememberNumber;
  readonly approval: ApprovalHandoff;

  private client: CompanionClient | undefined;
  private run = new AbortController();
  private stream: AbortController | null = null;
  private setupTimer: ReturnType<typeof setTimeout> | undefined;
  private configured = false;
  /** The page's embedded view, until the first load uses it. */
  private embedded = '';
  private readonly lookups = new NumberLookups(() => this.client);
  private readonly focus: StepFocus;

  constructor(private readonly host: CheckoutHost) {
    host.addController(this);
    this.number = new NumberStep(host, this);
    this.remember = new RememberNumber(host, this.number);
    this.clock = new WaitingClock(host, () => this.dispatch({ type: 'TIMED_OUT' }));
    this.approval = new ApprovalHandoff(host, this);
    this.focus = new StepFocus(host);
    new OnlineRetry(host, this); // registers itself with the host: nothing here calls it
  }

  hostConnected(): void {
    // Moved in the DOM or re-attached: start over from the token (the payment resumes from it).
    if (this.client) this.start();
    else if (this.configured) this.awaitSetup();
  }

  hostDisconnected(): void {
    this.stop();
  }

  /**
   * (Re)starts with the host's client or endpoint + token. Without them it waits `setupWaitMs`
   * (a framework may set the token a moment after creating the element), then says what is missing.
   */
  configure(): void {
    const { client, endpoint, token } = this.host;
    this.configured = true;
    this.embedded = this.host.checkoutView;
    this.client = client ?? (endpoint && token ? createFetchClient({ endpoint, token }) : undefined);
    this.lookups.clear();
    if (!this.host.isConnected) return;
    if (this.client) this.start();
    else this.awaitSetup();
  }

  private awaitSetup(): void {
    this.stop();
    this.state = initialState;
    this.host.requestUpdate();
    this.setupTimer = setTimeout(() => {
      const problem = setupProblem(this.host.endpoint, this.host.token);
      // The page's developer reads the console; the payer reads the element.
      console.warn(problem.message);
      this.dispatch({ type: 'FAILED_REQUEST', problem });
    }, this.host.setupWaitMs);
  }

  private start(): void {
    this.stop();
    this.state = initialState;
    this.approval.reset();
    // Before the country guess: a kept number comes with the country it was read in.
    this.remember.fill();
    this.number.guessCountry();
    this.host.requestUpdate();
    void this.load();
  }

  private stop(): void {
    clearTimeout(this.setupTimer);
    this.run.abort();
    this.run = new AbortController();
    this.stream?.abort();
    this.stream = null;
    this.number.cancelPause();
    this.clock.stop();
  }

  /**
   * One step of the machine. The page hears it in the order it happens: the state change, then the
   * error it carries (`momo-error`), then what entering the state does (an outcome event, a request,
   * a navigation, and any state change those cause in turn).
   */
  dispatch(event: CheckoutEvent): boolean {
    const before = this.state;
    const after = next(before, event);
    if (after === before) return false;
    this.state = after;
    this.host.requestUpdate();
    const problem = after.problem !== before.problem ? after.problem : null;
    if (after.status !== before.status) {
      this.focus.onStep(after.status);
      this.host.dispatchEvent(new MomoStateChangeEvent({ status: after.status, previous: before.status }));
    }
    if (problem) {
      const { code, message = en.problem[code], httpStatus } = problem;
      this.host.dispatchEvent(new MomoErrorEvent(httpStatus === undefined ? { code, message } : { code, message, httpStatus }));
    }
    // A listener may already have moved the checkout on: entering this state is then moot.
    if (this.state !== after) return true;
    if (after.status !== before.status || after.status === 'redirecting') this.enter(after.status, before.status);
    return true;
  }

  /** Effects of entering a status. */
  private enter(status: Status, previous: Status): void {
    if (waitingStatuses.includes(status)) this.clock.start(status);
    else this.clock.stop();
    if (status !== 'submitting' && previous === 'submitting' && status !== 'needs-otp') this.otpSent = false;
    switch (status) {
      case 'loading':
        void this.load();
        break;
      case 'looking-up':
        void this.settle(this.lookups.lookup(this.state.phoneNumber ?? '', this.number.country));
        break;
      case 'previewing':
        void this.settle(this.lookups.preview(this.state.phoneNumber ?? '', this.state.useWallet));
        break;
      case 'entering':
        // Back to the number (after "try again", or the checkout's answer): re-read what is typed,
        // still showing a mistake the payer was already shown while it loaded.
        if (previous === 'failed' || previous === 'approval-unavailable' || previous === 'loading') this.number.validateNow(this.number.phoneCheck?.kind === 'invalid');
        break;
      case 'ready':
        // A kept number paid with the overlay wallet last time: offer the same choice.
        if (this.state.lookup?.wallet && !this.state.useWallet && this.remember.takeWalletChoice()) this.chooseWallet(true);
        break;
      case 'redirecting':
        this.approval.redirect(this.client, this.run.signal);
        break;
      case 'succeeded':
        this.stream?.abort();
        if (this.state.payment) {
          this.host.dispatchEvent(new MomoSucceededEvent({ orderId: this.state.payment.orderId, payment: this.state.payment }));
        }
        break;
      case 'failed':
        if (this.state.payment) {
          this.host.dispatchEvent(new MomoFailedEvent({ orderId: this.state.payment.orderId, payment: this.state.payment }));
        }
        break;
    }
  }

  private async settle(pending: Promise<CheckoutEvent>): Promise<void> {
    const signal = this.run.signal;
    const event = await pending;
    if (!signal.aborted) this.dispatch(event);
  }

  private async load(): Promise<void> {
    const client = this.client;
    if (!client) {
      // "Try again" with the setup still missing: say so again (the console heard it once).
      this.dispatch({ type: 'FAILED_REQUEST', problem: setupProblem(this.host.endpoint, this.host.token) });
      return;
    }
    const signal = this.run.signal;
    try {
      // Issue 10: a view the page's server rendered saves the first round trip; "try again" asks the companion.
      const embedded = this.embedded;
      this.embedded = '';
      const checkout = embeddedView(embedded) ?? (await client.getCheckout(signal));
      if (signal.aborted) return;
      this.number.servedCountries(checkout.countries.map((c) => c.code));
      const loaded = eventForCheckout(checkout);
      this.dispatch(loaded);
      if (loaded.type === 'CHECKOUT_UNPAYABLE') return;
      if (checkout.payment) this.onPayment(checkout.payment);
      this.subscribe(client);
    } catch (error) {
      if (!signal.aborted && !isAbort(error)) this.dispatch({ type: 'FAILED_REQUEST', problem: problemOf(error, true) });
    }
  }

  private subscribe(client: CompanionClient): void {
    this.stream?.abort();
    this.stream = new AbortController();
    client.subscribe((payment) => this.onPayment(payment), this.stream.signal);
  }

  onPayment(payment: PaymentView): void {
    // A needs-otp view we cannot act on (reloaded page: the number is gone) leaves the payer at the number.
    if (payment.state === 'needs-otp' && this.state.phoneNumber === null) return;
    this.dispatch(eventForPayment(payment));
  }

  // ----- the payer's actions -----

  chooseWallet(useWallet: boolean): void {
    if (useWallet !== this.state.useWallet) this.dispatch({ type: 'CHOICE_CHANGED', useWallet });
  }

  /**
   * The pay button or Enter. One pay-in per click: the status leaves `ready`/`needs-otp`
   * synchronously, so a second click, Enter or double click finds nothing to do.
   */
  submit(): void {
    const { status, workflow, phoneNumber, useWallet } = this.state;
    if (status === 'ready' && workflow === 'pre_authorized') {
      this.dispatch({ type: 'OTP_STEP' });
      return;
    }
    if ((status !== 'ready' && status !== 'needs-otp') || phoneNumber === null) return;
    const withOtp = status === 'needs-otp';
    const veto = new MomoSubmitEvent({ phoneNumber, useWallet, withOtp });
    this.host.dispatchEvent(veto);
    if (veto.defaultPrevented) return;
    this.remember.onPay(useWallet);
    this.otpSent = withOtp;
    // §2.3: the OTP goes exactly as typed; useWallet only when the payer chose the overlay wallet.
    const request = withOtp ? { phoneNumber, useWallet, otp: this.otp } : { phoneNumber, useWallet };
    if (!this.dispatch({ type: 'SUBMIT' })) return;
    void this.pay(request);
  }

  private async pay(request: { phoneNumber: string; useWallet: boolean; otp?: string }, repostUntil?: number): Promise<void> {
    const client = this.client;
    if (!client) return;
    const signal = this.run.signal;
    try {
      const payment = await client.pay(request, signal);
      if (!signal.aborted) this.onPayment(payment);
    } catch (error) {
      if (signal.aborted || isAbort(error)) return;
      const problem = problemOf(error);
      if (problem.code === 'OTP_REFUSED') this.dispatch({ type: 'OTP_REFUSED', problem });
      else if (problem.code === 'PAYMENT_IN_PROGRESS' || problem.code === 'ALREADY_PAID') {
        // Another tab (or a double submit that slipped through) already paid: show that payment.
        const payment = await client.getStatus(signal).catch(() => null);
        if (signal.aborted) return;
        if (payment) this.onPayment(payment);
        // Nothing to show yet: still "sending", and the same request again in a moment (pay-repost.ts).
        else if (problem.code === 'PAYMENT_IN_PROGRESS' && (await waitToRepost((repostUntil ??= Date.now() + payRepostBoundMs), signal))) {
          // The status stream may have brought the payment meanwhile: then there is nothing to re-post.
          if (this.state.status === 'submitting') void this.pay(request, repostUntil);
        } else if (!signal.aborted) this.dispatch({ type: 'REJECTED', problem });
      } else if (['AMOUNT_OUT_OF_RANGE', 'INVALID_PHONE', 'NO_OPERATOR', 'BAD_REQUEST', 'LINK_USED'].includes(problem.code)) {
        this.dispatch({ type: 'REJECTED', problem });
      } else {
        this.dispatch({ type: 'FAILED_REQUEST', problem });
      }
    }
  }

  changeNumber(): void {
    this.otp = '';
    this.dispatch({ type: 'NUMBER_EDITED' });
    this.focus.request();
  }

  /** "Not you?" or "forget": back to an empty field, the focus in it. */
  useAnotherNumber(forget: boolean): void {
    if (forget) this.remember.forget();
    else this.remember.useAnother();
    if (this.state.status !== 'entering') this.dispatch({ type: 'NUMBER_EDITED' });
    this.focus.request();
  }

  retry(): void {
    this.dispatch({ type: 'RETRY' });
  }

  tryAgain(): void {
    this.otp = '';
    this.number.clear();
    if (this.dispatch({ type: 'TRY_AGAIN' })) this.focus.request();
  }
}
