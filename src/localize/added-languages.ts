/**
 * Languages that come in their own file (Portuguese, Swahili, Arabic): a payer downloads only
 * theirs. The script-tag file and each language file are separate bundles, so they cannot share a
 * module: they meet in one map kept on `globalThis` under a registered symbol, whichever loads first.
 */
import type { Strings } from './en.js';

const key = Symbol.for('momo-checkout.languages');

/** Fired on `window` when a language file has run: elements already shown re-render in it. */
export const languageAddedEvent = 'momo-checkout-language';

function added(): Map<string, Strings> {
  const global = globalThis as typeof globalThis & { [key]?: Map<string, Strings> };
  return (global[key] ??= new Map());
}

/** Makes a table available to every `<momo-checkout>` on the page, now and later. */
export function addLanguage(code: string, table: Strings): void {
  added().set(code, table);
  // Not on a server (SSR imports the element): there is no window to tell.
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(languageAddedEvent));
}

export function addedLanguage(code: string): Strings | undefined {
  return added().get(code);
}
