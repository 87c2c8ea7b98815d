/**
 * Loads a language's file in an app (npm, a bundler): one dynamic import per language, each a
 * literal the bundler sees and splits into a chunk of its own, fetched only by a page that asks for
 * that language (issue 32). The script-tag build swaps this module for load-language-file.script-tag.ts
 * (vite.browser.config.ts), since a single IIFE cannot split.
 */
const imports: Record<string, () => Promise<unknown>> = {
  fr: () => import('../languages/fr.js'),
  pt: () => import('../languages/pt.js'),
  sw: () => import('../languages/sw.js'),
  ar: () => import('../languages/ar.js'),
};

/** Resolves once the language's file has run (its table added); rejects when it cannot be had. */
export async function loadLanguageFile(code: string): Promise<void> {
  const load = imports[code];
  if (!load) throw new Error(`no language file for "${code}"`);
  await load();
}

/** Where the file comes from, for the console warning when it fails. */
export function languageFileUrl(code: string): string {
  return `@momo-checkout/element/languages/${code}`;
}
