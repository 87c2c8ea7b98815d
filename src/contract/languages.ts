/**
 * The languages momo-checkout speaks, in one list: the element's tables and language files, the
 * operations console (its page and the sign-in page the server writes, chosen from Accept-Language),
 * the stories and the tests all read it here. In contract/ because both the browser's code and the
 * server's read it, and neither may import the other.
 *
 * Adding a language is its entry here plus its texts: the element's table (`src/localize/<code>.ts`)
 * and the entry of its file (`src/languages/<code>.ts`), and with `console: true` the console's
 * (`src/console/console-text-<code>.ts` and the sign-in page's words in
 * `src/server/console/console-pages.ts`). The type checker then asks for the one line each seam
 * keyed by language needs (`load-language-file.ts`'s import, the console's table of texts).
 */
export const languages = [
  /** In the script-tag file itself; every other language comes in a file of its own. */
  { code: 'en', name: 'English', console: true },
  /** `console: true`: the operations console speaks it too. */
  { code: 'fr', name: 'Français', console: true },
  { code: 'pt', name: 'Português' },
  { code: 'sw', name: 'Kiswahili' },
  { code: 'ar', name: 'العربية' },
] as const;

export type LanguageCode = (typeof languages)[number]['code'];

/** English first: the language shown when a page asks for none we speak. */
export const languageCodes: readonly LanguageCode[] = languages.map((language) => language.code);

/** A language that ships as a file of its own (`momo-checkout-<version>.<code>.js`): all but English. */
export type LanguageInFile = Exclude<LanguageCode, 'en'>;
export const languagesInFiles = languageCodes.filter((code): code is LanguageInFile => code !== 'en');

/** The operations console's languages. */
export type ConsoleLanguage = Extract<(typeof languages)[number], { console: true }>['code'];
// A function the bundler may drop when unused: the element's script-tag file (25.5 KB budget) never asks.
export const consoleLanguages: readonly ConsoleLanguage[] = /* @__PURE__ */ consoleCodes();

/* @__NO_SIDE_EFFECTS__ */
function consoleCodes(): ConsoleLanguage[] {
  return languages.flatMap((language) => ('console' in language ? [language.code as ConsoleLanguage] : []));
}

/** The console's language to offer after `code` (with two, the other one). */
export function nextConsoleLanguage(code: ConsoleLanguage): ConsoleLanguage {
  return consoleLanguages[(consoleLanguages.indexOf(code) + 1) % consoleLanguages.length]!;
}

/** A language's name in itself (`Français`), as a link to switch to it says it. */
export function languageName(code: LanguageCode): string {
  return languages.find((language) => language.code === code)!.name;
}

/**
 * The first of `tags` (BCP 47 tags, or an Accept-Language header's parts in their order, `fr-CA;q=0.8`)
 * whose primary language is one of `spoken`, else English.
 */
export function firstSpoken<Code extends LanguageCode>(spoken: readonly Code[], tags: readonly string[]): Code | 'en' {
  for (const tag of tags) {
    const primary = (tag.split(';')[0] ?? '').trim().toLowerCase().split(/[-_]/)[0];
    const found = spoken.find((code) => code === primary);
    if (found) return found;
  }
  return 'en';
}
