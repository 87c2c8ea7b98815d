/**
 * The digits amounts are written in (issue 32). `Intl.NumberFormat('ar')` resolves to Latin digits in
 * Chromium and Firefox but Arabic-Indic ones in WebKit with another ICU ("F CFA ٥٬٠٠٠"), while the
 * shop's own totals beside the checkout are Latin: the element asks for its digits by name
 * (`-u-nu-latn`) so every engine writes the same, and a shop whose page uses another system says
 * so with the `digits` attribute.
 */

let knownSystems: ReadonlySet<string> | null | undefined;

function isKnownSystem(system: string): boolean {
  // Intl.supportedValuesOf: every engine since 2022; without it, any well-formed name is tried.
  knownSystems ??= typeof Intl.supportedValuesOf === 'function' ? new Set(Intl.supportedValuesOf('numberingSystem')) : null;
  return knownSystems ? knownSystems.has(system) : /^[a-z0-9]{3,8}$/.test(system);
}

const warned = new Set<string>();

/**
 * The locale the element formats numbers in: the payer's language tag with the digits asked for.
 * `digits` is a CLDR numbering system (`latn`, `arab`, `arabext`, ...), default `latn`; a `lang`
 * that already names one (`ar-u-nu-arab`) keeps it unless `digits` is set.
 */
export function numberLocale(tag: string, digits: string): string {
  const asked = digits.trim().toLowerCase();
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return tag;
  }
  if (!asked && locale.numberingSystem) return tag;
  let system = asked || 'latn';
  if (!isKnownSystem(system)) {
    if (!warned.has(system)) {
      warned.add(system);
      console.warn(`<momo-checkout>: digits="${digits}" is not a numbering system this browser knows (latn, arab, arabext, ...): writing Latin digits.`);
    }
    system = 'latn';
  }
  return new Intl.Locale(tag, { numberingSystem: system }).toString();
}
