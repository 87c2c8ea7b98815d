/**
 * What the companion knows of a currency, learnt from the service's discovery answers: every
 * corridor answer teaches a currency's `decimalPlaces` and each operator's minimum for it (kept for
 * the process's life: they do not change from one call to the next), and the countries answer
 * tells which currencies are served at all. Apart from discovery.ts, which reads the service, so
 * that what `createCheckout` may refuse early (an order no payer could pay) is one page to check.
 */
import { amountFromNumber, compareAmounts } from '../../contract/money.js';
import type { CorridorOperator } from '../../contract/upstream/index.js';
import type { ServiceClient } from '../service-client/index.js';

/** What the companion knows of a currency, from the service's discovery answers so far. */
export interface CurrencyFacts {
  /** `currencies[].decimalPlaces` from any corridor answer that named it; null until one did. */
  decimalPlaces: number | null;
  /** The lowest `minAmountMajor` of the operators seen serving it (decimal string); null if none seen. */
  lowestMinimum: string | null;
  /**
   * Whether the service serves it: true when a country lists it or a corridor answer named it,
   * false when every country lists its currencies and none is this one, null when unknown (the
   * countries could not be read in time, or their answer does not list currencies).
   */
  served: boolean | null;
  /** The currencies the countries answer lists (sorted), or null when unknown. */
  servedCurrencies: string[] | null;
}

export type CountriesData = Awaited<ReturnType<ServiceClient['countries']>>;

export class LearntCurrencies {
  // Learnt from every answer and kept: a currency's decimals do not change from one call to the next.
  private readonly decimalsOf = new Map<string, number>();
  /** `<operator code>|<currency>` → minimum (decimal string). Bounded by the operators that exist. */
  private readonly minimumOf = new Map<string, string>();

  /** Keeps what a corridor answer says of its currencies. */
  learn(entries: CorridorOperator[]): void {
    for (const entry of entries) {
      for (const currency of entry.currencies) {
        this.decimalsOf.set(currency.code, currency.decimalPlaces);
        this.minimumOf.set(`${entry.code}|${currency.code}`, amountFromNumber(entry.minAmountMajor));
      }
    }
  }

  /** The facts of `currencyCode`, from what was learnt and the countries answer (`known`, null when unknown). */
  facts(currencyCode: string, known: CountriesData | null): CurrencyFacts {
    const minimums = [...this.minimumOf].filter(([key]) => key.endsWith(`|${currencyCode}`)).map(([, minimum]) => minimum);
    const lowestMinimum = minimums.reduce<string | null>((lowest, minimum) => (lowest === null || compareAmounts(minimum, lowest) < 0 ? minimum : lowest), null);
    const decimalPlaces = this.decimalsOf.get(currencyCode) ?? null;
    // A country whose currencies are not listed could serve any: then nothing is known from them.
    const listsAll = known !== null && known.countries.length > 0 && known.countries.every((entry) => entry.currencies.length > 0);
    const servedCurrencies = listsAll ? [...new Set(known.countries.flatMap((entry) => entry.currencies))].sort() : null;
    const served =
      decimalPlaces !== null || servedCurrencies?.includes(currencyCode) || known?.countries.some((entry) => entry.currencies.includes(currencyCode))
        ? true
        : servedCurrencies !== null
          ? false
          : null;
    return { decimalPlaces, lowestMinimum, served, servedCurrencies };
  }
}
