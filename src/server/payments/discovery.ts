/**
 * Discovery for the page: the operators of a number for the order's currency, the served
 * countries, and the fee preview's workflow. Corridor and country answers are cached with a TTL;
 * previews are cached per (number, amount, choice) for the checkout's life, because a preview may
 * durably assign a provider to a never-seen number.
 *
 * Every corridor answer also teaches what the service says of a currency (its `decimalPlaces`, the
 * minimum of each operator for it), kept for the process's life, so that `createCheckout` can refuse
 * an order no payer could pay as soon as the companion can know it (currency-facts.ts). The cache
 * is ttl-cache.ts.
 */
import type { CountryView, LookupResponse, OperatorView } from '../../contract/companion.js';
import { amountFromNumber, compareAmounts, parseAmount } from '../../contract/money.js';
import { normalizePhoneFull } from '../../contract/phone-full.js';
import type { CorridorOperator } from '../../contract/upstream/index.js';
import type { ServiceClient } from '../service-client/index.js';
import { silentLogger, type Logger } from '../log.js';
import { PayerRefusal } from '../model/payer-refusal.js';
import type { CheckoutRecord } from '../model/records.js';
import { LearntCurrencies, type CountriesData, type CurrencyFacts } from './currency-facts.js';
import { TtlCache } from './ttl-cache.js';

export type { CurrencyFacts } from './currency-facts.js';

export interface Discovery {
  countries(currencyCode: string): Promise<CountryView[]>;
  /**
   * What is known of a currency, reading the countries (cached) within `budgetMs` (default 3 s):
   * a service that cannot be reached in time gives what was learnt before, never a delay longer
   * than that, never an error.
   */
  currencyFacts(currencyCode: string, options?: { budgetMs?: number }): Promise<CurrencyFacts>;
  lookup(checkout: CheckoutRecord, typed: string, country: string | undefined): Promise<LookupResponse & { decimalPlaces: number | null }>;
  preview(checkout: CheckoutRecord, phoneNumber: string, useWallet: boolean): Promise<string>;
}

/** How long createCheckout stops waiting for the countries after a failed or late read. */
const countriesRetryMs = 30_000;

export function createDiscovery(service: ServiceClient, options: { ttlMs: number; checkoutTtlMs: number; now: () => number; log?: Logger }): Discovery {
  const log = options.log ?? silentLogger;
  const corridorCache = new TtlCache<CorridorOperator[]>(options.ttlMs, options.now);
  const countryCache = new TtlCache<CountriesData>(options.ttlMs, options.now, 1);
  const previewCache = new TtlCache<string>(options.checkoutTtlMs, options.now);
  const currencies = new LearntCurrencies();
  let lastCountries: CountriesData | null = null;

  const corridorsOf = (e164: string) =>
    corridorCache.get(e164, async () => {
      const { operators } = await service.corridors(e164);
      currencies.learn(operators);
      return operators;
    });
  let skipCountriesUntil = 0;
  const readCountries = () =>
    countryCache.get('all', async () => {
      const answer = await service.countries();
      lastCountries = answer;
      return answer;
    });

  return {
    async countries(currencyCode) {
      const answer = await readCountries();
      return answer.countries
        .filter((country) => country.currencies.length === 0 || country.currencies.includes(currencyCode))
        .map((country) => ({ code: country.code, name: country.name, dialCode: country.dialCode ?? '' }));
    },

    async currencyFacts(currencyCode, { budgetMs = 3000 } = {}) {
      let countries: CountriesData | null = null;
      // After a failed or late read, checkouts are created on what was learnt before for a while,
      // without waiting again: a service that is down must not add seconds to every checkout.
      if (options.now() >= skipCountriesUntil) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), budgetMs);
        });
        countries = await Promise.race([readCountries(), late])
          .catch((error: unknown) => {
            log.warn('countries discovery failed; checkouts are accepted on what was learnt before', { error });
            return null;
          })
          .finally(() => clearTimeout(timer));
        if (countries === null) skipCountriesUntil = options.now() + countriesRetryMs;
      }
      return currencies.facts(currencyCode, countries ?? lastCountries);
    },

    async lookup(checkout, typed, country) {
      const phone = normalizePhoneFull(typed, country);
      if (!phone.ok) throw new PayerRefusal('INVALID_PHONE', phone.message);
      const entries = (await corridorsOf(phone.e164)).filter((entry) => entry.currencies.some((currency) => currency.code === checkout.currencyCode));
      // §2.3: only the exact lowercase `wallet` is the overlay wallet.
      const operatorEntry = entries.find((entry) => entry.code !== 'wallet');
      const walletEntry = entries.find((entry) => entry.code === 'wallet');
      const operator = operatorEntry ? operatorView(operatorEntry, checkout.currencyCode) : null;
      const wallet = walletEntry ? operatorView(walletEntry, checkout.currencyCode) : null;
      const chosen = operator ?? wallet;
      if (!chosen) {
        throw new PayerRefusal('NO_OPERATOR', `No mobile money operator of this number takes payments in ${checkout.currencyCode}. Try another number.`);
      }
      // An amount the currency cannot carry is the shop's to correct, not the payer's (no other
      // operator or number helps): say so to both.
      if (!parseAmount(checkout.amount, chosen.decimalPlaces).ok) {
        log.error(
          `order ${checkout.orderId}: its amount ${checkout.amount} has more decimals than ${checkout.currencyCode} allows (${chosen.decimalPlaces}); no payer can pay it. Correct the amount in a new order: createCheckout refuses such amounts once the currency's decimals are known.`,
        );
        throw precisionError(checkout);
      }
      // Tell the payer early when the order cannot be paid here; the service's refusal stays
      // authoritative (§2.1: the published bounds are the channel's). Bounds are per entry: an
      // order over the operator's ceiling may still fit the wallet's, so refuse only when no
      // offered entry takes it (the pay route checks the one the payer chose).
      if (![operator, wallet].some((entry) => entry !== null && acceptsAmount(checkout, entry))) checkAmount(checkout, chosen);
      return { phoneNumber: phone.e164, country: phone.country ?? '', operator, wallet, decimalPlaces: chosen.decimalPlaces };
    },

    preview(checkout, phoneNumber, useWallet) {
      const key = `${phoneNumber}|${checkout.amount}|${checkout.currencyCode}|${useWallet ? 'wallet' : ''}`;
      return previewCache.get(key, async () => {
        const answer = await service.previewPayIn({
          phoneNumber,
          currencyCode: checkout.currencyCode,
          amount: checkout.amount,
          ...(useWallet ? { operatorCode: 'wallet' } : {}),
        });
        return answer.workflowType;
      });
    },
  };
}

/** The page's view of one corridor entry, for the order's currency (which the entry serves). */
function operatorView(entry: CorridorOperator, currencyCode: string): OperatorView {
  const currency = entry.currencies.find((item) => item.code === currencyCode)!;
  return {
    code: entry.code,
    name: entry.name,
    logoUrl: entry.logoUrl,
    instructions: entry.instructions.trim() === '' ? null : entry.instructions,
    workflowHint: entry.workflowType,
    minAmount: amountFromNumber(entry.minAmountMajor),
    maxAmount: entry.maxAmountMajor === null ? null : amountFromNumber(entry.maxAmountMajor),
    decimalPlaces: currency.decimalPlaces,
  };
}

/** Whether the order's amount fits this entry's decimals and published bounds. */
export function acceptsAmount(checkout: CheckoutRecord, operator: OperatorView): boolean {
  try {
    checkAmount(checkout, operator);
    return true;
  } catch (error) {
    if (error instanceof PayerRefusal) return false;
    throw error;
  }
}

/** Throws AMOUNT_OUT_OF_RANGE, with the bounds, when the order's amount does not fit this entry. */
export function checkAmount(checkout: CheckoutRecord, operator: OperatorView): void {
  if (!parseAmount(checkout.amount, operator.decimalPlaces).ok) throw precisionError(checkout);
  const outOfRange = () =>
    new PayerRefusal('AMOUNT_OUT_OF_RANGE', `This operator takes payments between ${operator.minAmount} and ${operator.maxAmount ?? 'no limit'} ${checkout.currencyCode}.`, {
      min: operator.minAmount,
      max: operator.maxAmount,
      currencyCode: checkout.currencyCode,
    });
  if (compareAmounts(checkout.amount, operator.minAmount) < 0) throw outOfRange();
  if (operator.maxAmount !== null && compareAmounts(checkout.amount, operator.maxAmount) > 0) throw outOfRange();
}

/** The payer can do nothing about it (no other number or operator helps): only the shop can. */
function precisionError(checkout: CheckoutRecord): PayerRefusal {
  return new PayerRefusal(
    'AMOUNT_PRECISION',
    `This order cannot be paid as it stands: its amount has more decimals than ${checkout.currencyCode} allows. Contact the shop.`,
    { currencyCode: checkout.currencyCode },
  );
}
