/**
 * Refuses at `createCheckout` an order that no payer could ever pay (issue 13 §1), whenever the
 * companion can know it from discovery: a currency the service serves nowhere, an amount with more
 * decimals than the currency allows (its ISO 4217 minor units until the service has said its
 * `decimalPlaces`), an amount below every known operator's minimum for it (only once the service
 * has said minimums: none is invented).
 *
 * What is unknown is accepted: a service that cannot be reached in time never blocks a shop from
 * creating its checkout; the lookup and the pay-in still refuse later, with a reason for the payer.
 */
import { compareAmounts, parseAmount } from '../../contract/money.js';
import type { Logger } from '../log.js';
import { CheckoutError } from './checkouts.js';
import type { Discovery } from './discovery.js';
import { isoMinorUnits } from './iso-decimals.js';

export async function refuseUnpayable(order: { orderId: string; amount: string; currencyCode: string }, discovery: Discovery, log: Logger): Promise<void> {
  const facts = await discovery.currencyFacts(order.currencyCode);
  const { amount, currencyCode } = order;
  // The service's figure once it has said one (§2.1); before that, on a fresh process, ISO 4217's.
  const decimals = facts.decimalPlaces ?? isoMinorUnits(currencyCode);
  let refusal: CheckoutError | null = null;
  if (facts.served === false) {
    refusal = new CheckoutError(
      `createCheckout: the payment service serves no country in ${currencyCode} (it serves ${facts.servedCurrencies?.join(', ') || 'none right now'}): a payer would find no operator. Charge the order in a served currency.`,
      'CURRENCY_NOT_SERVED',
    );
  } else if (decimals !== null && !parseAmount(amount, decimals).ok) {
    const rule = `${decimals === 0 ? 'none' : `at most ${decimals}`}${facts.decimalPlaces === null ? ": ISO 4217's minor units, until the payment service says its own figure" : ''}`;
    refusal = new CheckoutError(
      `createCheckout: amount ${amount} has more decimals than ${currencyCode} allows (${rule}); the service refuses it and never rounds. Correct the order's amount.`,
      'AMOUNT_PRECISION',
    );
  } else if (facts.lowestMinimum !== null && compareAmounts(amount, facts.lowestMinimum) < 0) {
    refusal = new CheckoutError(
      `createCheckout: amount ${amount} ${currencyCode} is below the minimum of every operator known to take ${currencyCode} (the lowest is ${facts.lowestMinimum}): no payer could pay it.`,
      'AMOUNT_BELOW_MINIMUM',
    );
  }
  if (refusal) {
    log.error(`order ${order.orderId} refused: ${refusal.message.replace(/^createCheckout: /, '')}`, { code: refusal.code });
    throw refusal;
  }
}
