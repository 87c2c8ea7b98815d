import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CountryView } from '../../contract/companion.js';
import type { CheckoutEvent } from '../../machine/events.js';
import type { MachineState } from '../../machine/machine.js';
import { checkPhone } from '../phone-check.js';
import { callingCodeOf } from '../phone-read.js';
import type { PhoneCheck } from '../phone-check.js';
import { metadataCountries, phoneMetadata } from '../phone-metadata.generated.js';

/** What the number step needs from the element. */
export interface NumberStepHost extends ReactiveControllerHost, HTMLElement {
  /** Pause after the last keystroke before the number is checked. */
  validationDelayMs: number;
}

/** What the number step needs from the checkout: its state, and a way to move it. */
export interface NumberStepCheckout {
  readonly state: MachineState;
  dispatch(event: CheckoutEvent): boolean;
}

/** Statuses in which a typed number is read (and, once the checkout has answered, looked up). */
const readingStatuses = ['loading', 'entering', 'looking-up', 'previewing', 'ready'];

/**
 * The number step: what the payer typed, the country it is read in, and the payer's own mistake,
 * said after a pause or on leaving the field, never per keystroke (issue 4 §1). A complete number
 * moves the checkout on (`NUMBER_COMPLETE`); the lookups it causes are the checkout's.
 */
export class NumberStep implements ReactiveController {
  /** What the payer typed, exactly. */
  typed = '';
  country: string | undefined;
  /** The payer's own phone error, shown after a pause or on leaving the field. */
  phoneCheck: PhoneCheck | null = null;

  private validationTimer: ReturnType<typeof setTimeout> | undefined;
  /** The countries the menu offers: the checkout's, or before it answers, those the bundle knows. */
  private served: readonly string[] = metadataCountries;

  constructor(
    private readonly host: NumberStepHost,
    private readonly checkout: NumberStepCheckout,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.cancelPause();
  }

  cancelPause(): void {
    clearTimeout(this.validationTimer);
  }

  /** Forgets the number (a new attempt after a failure). */
  clear(): void {
    this.typed = '';
    this.phoneCheck = null;
  }

  /** The field shows at once (issue 10): a first guess at the country, until the checkout says which are served. */
  guessCountry(): void {
    this.country ??= this.defaultCountry(metadataCountries, false);
  }

  /** The checkout's served countries have come: keep the payer's country when it is one of them. */
  servedCountries(served: readonly string[]): void {
    this.served = served;
    if (!this.country || !served.includes(this.country)) this.country = this.defaultCountry(served);
  }

  /**
   * The country list before the checkout has answered: the one guessed from the `country`
   * attribute or the page's language, with its calling code from the bundled metadata.
   */
  provisionalCountries(): CountryView[] {
    const code = this.country;
    if (!code) return [];
    const dial = Object.entries(phoneMetadata.country_calling_codes).find(([, countries]) => countries.includes(code))?.[0];
    return dial ? [{ code, name: code, dialCode: `+${dial}` }] : [];
  }

  /** Typing: nothing is said until a pause or leaving the field. */
  onInput(value: string): void {
    this.typed = value;
    this.followDialledCountry();
    if (this.checkout.state.status !== 'entering') this.checkout.dispatch({ type: 'NUMBER_EDITED' });
    this.cancelPause();
    this.validationTimer = setTimeout(() => this.validateNow(true), this.host.validationDelayMs);
  }

  onCountryChange(country: string): void {
    this.country = country;
    if (this.checkout.state.status !== 'entering') this.checkout.dispatch({ type: 'NUMBER_EDITED' });
    if (this.typed.trim()) this.validateNow(true);
    else this.host.requestUpdate();
  }

  /** Leaving the field, a pause, or Enter: read the number and, when it is good, look it up. */
  validateNow(showErrors: boolean): PhoneCheck | null {
    this.cancelPause();
    const { state } = this.checkout;
    // While loading, the number is checked here (a mistake is said at once) but looked up only
    // once the checkout has answered (NUMBER_COMPLETE waits for `entering`).
    if (!readingStatuses.includes(state.status)) return null;
    if (!this.typed.trim()) {
      this.phoneCheck = null;
      this.host.requestUpdate();
      return null;
    }
    const check = checkPhone(this.typed, this.country);
    if (check.kind === 'invalid') {
      this.phoneCheck = showErrors ? check : null;
      this.host.requestUpdate();
      return check;
    }
    this.phoneCheck = check;
    if (state.phoneNumber !== check.phoneNumber || state.status === 'entering') {
      if (state.status !== 'entering') this.checkout.dispatch({ type: 'NUMBER_EDITED' });
      this.checkout.dispatch({ type: 'NUMBER_COMPLETE', phoneNumber: check.phoneNumber });
    }
    this.host.requestUpdate();
    return check;
  }

  /**
   * A number typed or pasted with its calling code (`+237…`, `00237…`) moves the menu to that
   * country, so the menu never says "Benin (+229)" beside a Cameroon number. A code the checkout
   * does not serve leaves the menu alone (the number is then refused or sent as typed), and a code
   * several countries share keeps the payer's choice when it is one of them.
   */
  private followDialledCountry(): void {
    const code = callingCodeOf(this.typed, phoneMetadata);
    const owners = code ? (phoneMetadata.country_calling_codes[code] ?? []) : [];
    if (this.country && owners.includes(this.country)) return;
    const dialled = owners.find((country) => this.served.includes(country));
    if (!dialled) return;
    this.country = dialled;
    this.host.requestUpdate();
  }

  private defaultCountry(served: readonly string[], orFirst = true): string | undefined {
    const wanted = this.host.getAttribute('country')?.toUpperCase();
    if (wanted && served.includes(wanted)) return wanted;
    // The page's locale region (`fr-CI` → CI), then the browser's.
    const tags = [this.host.closest('[lang]')?.getAttribute('lang'), document.documentElement.lang, ...(navigator.languages ?? [])];
    for (const tag of tags) {
      const region = tag?.split(/[-_]/)[1]?.toUpperCase();
      if (region && served.includes(region)) return region;
    }
    return orFirst ? served[0] : undefined;
  }
}
