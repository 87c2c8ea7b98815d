import type { ReactiveControllerHost } from 'lit';
import { forgetRememberedNumber, keepRememberedNumber, readRememberedNumber } from '../number-memory.js';
import type { RememberedNumber } from '../number-memory.js';

/** What the remember option needs from the element. */
export interface RememberHost extends ReactiveControllerHost {
  /** `off`: the shop turned the offer off (the `remember` attribute). */
  remember: string;
}

/** The number step's fields it fills in and clears. */
export interface RememberedField {
  typed: string;
  country: string | undefined;
  clear(): void;
}

/**
 * The opt-in "remember this number on this device" (issue 23): unticked by default; a kept number
 * fills the field next time, with "not you?" and "forget" beside it. Kept only when the payer pays
 * with the box ticked.
 */
export class RememberNumber {
  /** The checkbox. */
  ticked = false;
  /** The number filled in from this device, while the field still shows it. */
  filled: RememberedNumber | null = null;
  private walletRestored = false;

  constructor(
    private readonly host: RememberHost,
    private readonly field: RememberedField,
  ) {}

  get offered(): boolean {
    return this.host.remember.trim().toLowerCase() !== 'off';
  }

  /** A new checkout: the kept number, if any, goes into the field. */
  fill(): void {
    this.filled = null;
    this.ticked = false;
    this.walletRestored = false;
    const kept = this.offered ? readRememberedNumber() : null;
    if (!kept) return;
    this.filled = kept;
    this.ticked = true;
    this.field.typed = kept.typed;
    if (kept.country) this.field.country = kept.country;
  }

  /** Whether the field still shows the number kept on this device. */
  get showsKept(): boolean {
    return this.filled !== null && this.filled.typed === this.field.typed;
  }

  /** True once, when the kept number's operators are known and the payer had chosen the wallet. */
  takeWalletChoice(): boolean {
    if (this.walletRestored || !this.showsKept || !this.filled?.useWallet) return false;
    this.walletRestored = true;
    return true;
  }

  /** The payer pays: keep the number ticked, or drop the kept one they unticked. */
  onPay(useWallet: boolean): void {
    if (!this.offered) return;
    if (this.ticked) keepRememberedNumber({ typed: this.field.typed, country: this.field.country ?? null, useWallet });
    else if (readRememberedNumber()?.typed === this.field.typed) forgetRememberedNumber();
  }

  /** "Not you? Use another number": an empty field; what is kept stays until they pay or forget. */
  useAnother(): void {
    this.filled = null;
    this.ticked = false;
    this.field.clear();
    this.host.requestUpdate();
  }

  /** "Forget this number on this device": gone from the device at once. */
  forget(): void {
    forgetRememberedNumber();
    this.useAnother();
  }

  toggle(ticked: boolean): void {
    this.ticked = ticked;
    this.host.requestUpdate();
  }
}
