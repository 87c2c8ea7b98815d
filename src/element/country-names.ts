import type { CountryView } from '../contract/companion.js';

const displayNames = new Map<string, Intl.DisplayNames | null>();

function namesIn(locale: string): Intl.DisplayNames | null {
  let names = displayNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    } catch {
      names = null; // a malformed lang tag, or a browser without DisplayNames
    }
    displayNames.set(locale, names);
  }
  return names;
}

/**
 * A country as a payer reads it in their language, with its calling code: `Bénin (+229)` in French.
 * The companion's name (the payment service's, in English) is the fallback.
 */
export function countryLabel(country: CountryView, locale: string): string {
  let name = country.name;
  try {
    name = namesIn(locale)?.of(country.code) ?? name;
  } catch {
    // a code DisplayNames refuses: keep the service's name
  }
  return `${name} (${country.dialCode})`;
}

/** The countries with their labels, in the payer's alphabetical order. */
export function countryOptions(countries: readonly CountryView[], locale: string): Array<{ code: string; label: string }> {
  const options = countries.map((country) => ({ code: country.code, label: countryLabel(country, locale) }));
  let collator: Intl.Collator;
  try {
    collator = new Intl.Collator(locale);
  } catch {
    collator = new Intl.Collator();
  }
  return options.sort((a, b) => collator.compare(a.label, b.label));
}
