/**
 * "Remember this number on this device" (issue 23): what the payer opted in to keep, in the
 * browser's localStorage, which belongs to the page's origin (the shop's), on this device only.
 * Nothing here is sent anywhere: the number reaches the companion only as the payer's lookup would.
 */
export interface RememberedNumber {
  /** The number as the payer typed it. */
  typed: string;
  /** The country it was read in (ISO alpha-2). */
  country: string | null;
  /** The payer chose the overlay wallet rather than their operator. */
  useWallet: boolean;
}

export const numberMemoryKey = 'momo-checkout:remembered-number';

/** localStorage, or null where it is refused (a sandboxed iframe, storage turned off) or absent (SSR). */
function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readRememberedNumber(): RememberedNumber | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(numberMemoryKey) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { typed, country, useWallet } = value as Record<string, unknown>;
    if (typeof typed !== 'string' || !typed.trim()) return null;
    return { typed, country: typeof country === 'string' ? country : null, useWallet: useWallet === true };
  } catch {
    return null; // not ours, or not JSON: as if nothing were kept
  }
}

export function keepRememberedNumber(number: RememberedNumber): void {
  try {
    storage()?.setItem(numberMemoryKey, JSON.stringify(number));
  } catch {
    // Quota or private mode: the payer types the number next time, as without the option.
  }
}

export function forgetRememberedNumber(): void {
  try {
    storage()?.removeItem(numberMemoryKey);
  } catch {
    // Storage refused: nothing could have been kept either.
  }
}
