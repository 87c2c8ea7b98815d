/**
 * The digits amounts are written in (issue 32). `Intl.NumberFormat('ar')` resolves to Latin digits in
 * Chromium and Firefox but Arabic-Indic ones in WebKit with another ICU ("F CFA ٥٬٠٠٠"), while the
 * shop's own totals beside the checkout are Latin: the element asks for its digits by name
 * (`-u-nu-latn`) so every engine writes the same, and a shop whose page uses another system says
 * so with the `digits` attribute.
 */

/**
 * The locale the element formats numbers in: the payer's language tag with the digits asked for.
 * `digits` is a CLDR numbering system (`latn`, `arab`, `arabext`, ...), default `latn`; a `lang`
 * that already names one (`ar-u-nu-arab`) keeps it unless `digits` is set. A name that is not
 * well formed (Intl refuses it) gives Latin digits; one that is but that the engine does not know
 * gives the language's own default (`Intl.NumberFormat` falls back by itself).
 */
export function numberLocale(tag: string, digits: string): string {
  const asked = digits.trim().toLowerCase();
  try {
    if (!asked && new Intl.Locale(tag).numberingSystem) return tag;
    return new Intl.Locale(tag, { numberingSystem: asked || 'latn' }).toString();
  } catch {
    try {
      return new Intl.Locale(tag, { numberingSystem: 'latn' }).toString();
    } catch {
      // Not a language tag Intl reads: formatters fall back to the browser's language.
      return tag;
    }
  }
}
