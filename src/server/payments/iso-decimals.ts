/**
 * A currency's ISO 4217 minor units, as this runtime's `Intl` knows them: the first check of an
 * order's decimals until the payment service has said the currency's own `decimalPlaces` (§2.1).
 * From then on the service's figure rules (discovery keeps it); this is never a scale hard-coded
 * in place of the service's, only what stands in before it has spoken.
 */
let known: ReadonlySet<string> | undefined;
/** Per code, once: a new Intl.NumberFormat per checkout was 3% of a creation's CPU (issue 43's profile). */
const minorUnits = new Map<string, number | null>();

/** Minor units of `currencyCode`, or null for a code Intl does not know (`USDC`): then nothing is checked. */
export function isoMinorUnits(currencyCode: string): number | null {
  // Intl formats an unknown but well-formed code (`ABC`) with 2 decimals: that is a default, not a fact.
  known ??= new Set(Intl.supportedValuesOf('currency'));
  if (!known.has(currencyCode)) return null;
  let units = minorUnits.get(currencyCode);
  if (units === undefined) {
    units = new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits ?? null;
    minorUnits.set(currencyCode, units);
  }
  return units;
}
