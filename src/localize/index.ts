/**
 * Typed translation tables, picked per element.
 *
 * Why not @lit/localize: its `configureLocalization` sets ONE locale for the whole page, and two
 * `<momo-checkout>` on one page (a shop in French with an English widget for a guest) may need
 * different languages. A table per element is also tree-shakable and has no runtime loader.
 *
 * English is in the script-tag file; French, Portuguese, Swahili and Arabic each come in a file of
 * their own (src/languages/, added-languages.ts), which the page includes or the element loads by
 * itself (language-requests.ts, issue 32): a payer downloads only their language, and the
 * script-tag file keeps within its 25 KB budget (issue 23).
 */
import { addedLanguage } from './added-languages.js';
import { hasLanguageFile } from './load-language-file.js';
import { en } from './en.js';
import type { Strings } from './en.js';

export type { Strings };
/** The tables inside the script-tag file. */
export const tables = { en } as const satisfies Record<string, Strings>;
/** A language code whose table is available: built in, or added by its file. */
export type Language = string;


function primaryOf(tag: string | null | undefined): string {
  return (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

function tableOf(code: string): Strings | undefined {
  return code in tables ? tables[code as keyof typeof tables] : addedLanguage(code);
}

/** The table for a BCP 47 tag: `fr-CI` → French once its file ran; a language not (yet) loaded, or unknown → English. */
export function languageFor(tag: string | null | undefined): Language {
  const primary = primaryOf(tag);
  return tableOf(primary) ? primary : 'en';
}

export function stringsFor(tag: string | null | undefined): Strings {
  return tableOf(languageFor(tag)) ?? en;
}

/**
 * The language file a tag needs and the page has not loaded (`pt` for `pt-MZ`), else null: the
 * element loads it (language-requests.ts).
 */
export function missingLanguageFile(tag: string | null | undefined): string | null {
  const primary = primaryOf(tag);
  return hasLanguageFile(primary) && !addedLanguage(primary) ? primary : null;
}

/**
 * The language that applies to an element: its own `lang`, else the closest `[lang]` ancestor
 * (crossing shadow roots), else the document's, else English. Called at render time, never at
 * import (SSR).
 */
export function languageTagOf(element: Element): string {
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element) {
      const lang = node.getAttribute('lang');
      if (lang) return lang;
      node = node.parentNode;
    } else if (node instanceof ShadowRoot) {
      node = node.host;
    } else {
      node = node.parentNode;
    }
  }
  return typeof document !== 'undefined' && document.documentElement.lang ? document.documentElement.lang : 'en';
}
