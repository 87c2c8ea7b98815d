/**
 * Discovery for the page: the operators of a number for the order's currency (§4.6), the served
 * countries (§4.5), and the fee preview's workflow (§4.2). Corridor and country answers are cached
 * with a TTL; previews are cached per (number, amount, choice) for the checkout's life, because a
 * preview may durably assign a provider to a never-seen number (§4.2).
 */
import type { CountryView, LookupResponse, OperatorView } from '../../contract/companion.js';
import { amountFromNumber, compareAmounts, parseAmount } from '../../contract/money.js';
import { normalizePhoneFull } from '../../contract/phone-full.js';
import type { CorridorOperator } from '../../contract/upstream/index.js';
import type { ServiceClient } from '../service-client/index.js';
import { CompanionHttpError } from './http-errors.js';
import type { CheckoutRecord } from './records.js';

interface Cached<T> {
  value: Promise<T>;
  until: number;
}

/** A small TTL cache of promises: concurrent askers share one upstream call. */
class TtlCache<T> {
  private readonly entries = new Map<string, Cached<T>>();
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > at) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    this.entries.set(key, { value, until: at + this.ttlMs });
    // A failed call is not cached: the next asker tries again.
    value.catch(() => this.entries.delete(key));
    return value;
  }
}

export interface Discovery {
  countries(currencyCode: string): Promise<CountryView[]>;
  lookup(checkout: CheckoutRecord, typed: string, country: string | undefined): Promise<LookupResponse & { decimalPlaces: number | null }>;
  preview(checkout: CheckoutRecord, phoneNumber: string, useWallet: boolean): Promise<string>;
}

export function createDiscovery(service: ServiceClient, options: { ttlMs: number; checkoutTtlMs: number; now: () => number }): Discovery {
  const corridorCache = new TtlCache<CorridorOperator[]>(options.ttlMs, options.now);
  const countryCache = new TtlCache<Awaited<ReturnType<ServiceClient['countries']>>>(options.ttlMs, options.now, 1);
  const previewCache = new TtlCache<string>(options.checkoutTtlMs, options.now);

  const corridorsOf = (e164: string) => corridorCache.get(e164, async () => (await service.corridors(e164)).operators);

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

  return {
    async countries(currencyCode) {
      const answer = await countryCache.get('all', () => service.countries());
      return answer.countries
        .filter((country) => country.currencies.length === 0 || country.currencies.includes(currencyCode))
        .map((country) => ({ code: country.code, name: country.name, dialCode: country.dialCode ?? '' }));
    },

    async lookup(checkout, typed, country) {
      const phone = normalizePhoneFull(typed, country);
      if (!phone.ok) throw new CompanionHttpError('INVALID_PHONE', phone.message);
      const entries = (await corridorsOf(phone.e164)).filter((entry) => entry.currencies.some((currency) => currency.code === checkout.currencyCode));
      // §2.3: only the exact lowercase `wallet` is the overlay wallet.
      const operatorEntry = entries.find((entry) => entry.code !== 'wallet');
      const walletEntry = entries.find((entry) => entry.code === 'wallet');
      const operator = operatorEntry ? operatorView(operatorEntry, checkout.currencyCode) : null;
      const wallet = walletEntry ? operatorView(walletEntry, checkout.currencyCode) : null;
      const chosen = operator ?? wallet;
      if (!chosen) {
        throw new CompanionHttpError('NO_OPERATOR', `No mobile money operator of this number takes payments in ${checkout.currencyCode}. Try another number.`);
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

/** Whether the order's amount fits this entry's decimals and published bounds. */
export function acceptsAmount(checkout: CheckoutRecord, operator: OperatorView): boolean {
  try {
    checkAmount(checkout, operator);
    return true;
  } catch (error) {
    if (error instanceof CompanionHttpError) return false;
    throw error;
  }
}

/** Throws AMOUNT_OUT_OF_RANGE, with the bounds, when the order's amount does not fit this entry. */
export function checkAmount(checkout: CheckoutRecord, operator: OperatorView): void {
  const parsed = parseAmount(checkout.amount, operator.decimalPlaces);
  const outOfRange = () =>
    new CompanionHttpError('AMOUNT_OUT_OF_RANGE', `This operator takes payments between ${operator.minAmount} and ${operator.maxAmount ?? 'no limit'} ${checkout.currencyCode}.`, {
      min: operator.minAmount,
      max: operator.maxAmount,
      currencyCode: checkout.currencyCode,
    });
  if (!parsed.ok) {
    throw new CompanionHttpError('AMOUNT_OUT_OF_RANGE', `The order's amount has more decimals than ${checkout.currencyCode} allows: the shop must correct it.`, {
      currencyCode: checkout.currencyCode,
    });
  }
  if (compareAmounts(checkout.amount, operator.minAmount) < 0) throw outOfRange();
  if (operator.maxAmount !== null && compareAmounts(checkout.amount, operator.maxAmount) > 0) throw outOfRange();
}
