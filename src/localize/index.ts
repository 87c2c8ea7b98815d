/**
 * Typed translation tables, picked per element.
 *
 * Why not @lit/localize: its `configureLocalization` sets ONE locale for the whole page, and two
 * `<momo-checkout>` on one page (a shop in French with an English widget for a guest) may need
 * different languages. A table per element is also tree-shakable and has no runtime loader.
 */
import { en } from './en.js';
import type { Strings } from './en.js';
import { fr } from './fr.js';

export type { Strings };
export const tables = { en, fr } as const satisfies Record<string, Strings>;
export type Language = keyof typeof tables;

/** The table for a BCP 47 tag: `fr-CI` → French; anything unknown → English. */
export function languageFor(tag: string | null | undefined): Language {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return primary in tables ? (primary as Language) : 'en';
}

export function stringsFor(tag: string | null | undefined): Strings {
  return tables[languageFor(tag)];
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
