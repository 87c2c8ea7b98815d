/**
 * Loads a language's file in an app (npm, a bundler): one dynamic import per language, each a
 * literal the bundler sees and splits into a chunk of its own, fetched only by a page that asks for
 * that language (issue 32). The script-tag build swaps this module for load-language-file.script-tag.ts
 * (vite.browser.config.ts), since a single IIFE cannot split.
 */
import type { LanguageInFile } from '../contract/languages.js';

// Keyed by the one list (contract/languages.ts): a language added there without its line here fails
// the type check. A literal per language, not a template: a bundler splits only what it can see.
const imports: Record<LanguageInFile, () => Promise<unknown>> = {
  fr: () => import('../languages/fr.js'),
  pt: () => import('../languages/pt.js'),
  sw: () => import('../languages/sw.js'),
  ar: () => import('../languages/ar.js'),
};

/** Whether `code` comes as a file of its own (own keys only: `toString` is no language). */
export function hasLanguageFile(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(imports, code);
}

/** Resolves once the language's file has run (its table added); rejects when it cannot be had. */
export async function loadLanguageFile(code: string): Promise<void> {
  const load = imports[code as LanguageInFile];
  if (!load) throw new Error(`no language file for "${code}"`);
  await load();
}

/** Where the file comes from, for the console warning when it fails. */
export function languageFileUrl(code: string): string {
  return `@momo-checkout/element/languages/${code}`;
}
