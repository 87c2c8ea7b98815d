/**
 * From a number to its country and operator (§2.2: "the country and the operator are deduced from
 * this number"), and from an (operator, amount) to the collecting workflow (§4.1).
 */
import { compareAmounts } from '../../contract/money.js';
import { countries, type CorridorDef, type CountryDef, type OperatorDef } from './catalogue.js';
import type { Workflow } from '../types.js';

/** §2.2: `+`, a country calling code and subscriber digits; no spaces or separators. */
const STRICT_E164 = /^\+[1-9][0-9]{6,14}$/;

export function isStrictE164(value: string): boolean {
  return STRICT_E164.test(value);
}

export interface ResolvedNumber {
  country: CountryDef;
  /** The operator the national prefix resolves to; undefined when no prefix matches. */
  operator: OperatorDef | undefined;
}

/** Undefined when the calling code is not a country the sandbox serves, or the length is wrong. */
export function resolveNumber(e164: string): ResolvedNumber | undefined {
  const country = countries.find((entry) => e164.startsWith(entry.dialCode));
  if (!country) return undefined;
  const national = e164.slice(country.dialCode.length);
  if (national.length !== country.nationalLength) return undefined;
  // Longest prefix wins, so `650` (MTN) is not taken by a shorter `65` elsewhere.
  let best: { operator: OperatorDef; length: number } | undefined;
  for (const operator of country.operators) {
    for (const prefix of operator.prefixes) {
      if (national.startsWith(prefix) && (!best || prefix.length > best.length)) best = { operator, length: prefix.length };
    }
  }
  return { country, operator: best?.operator };
}

/** §2.3: only the exact lowercase literal `wallet` forces the overlay wallet; anything else is ignored. */
export function chooseOperator(resolved: ResolvedNumber, operatorCode: unknown): OperatorDef | undefined {
  if (operatorCode === 'wallet') return resolved.country.wallet;
  return resolved.operator;
}

export function corridorFor(operator: OperatorDef, currencyCode: string): CorridorDef | undefined {
  return operator.corridors.find((corridor) => corridor.currencyCode === currencyCode);
}

/** §4.1: the corridor is resolved from the full number AND the amount. */
export function resolveWorkflow(operator: OperatorDef, amount: string): Workflow {
  if (operator.preAuthorizedAbove !== undefined && compareAmounts(amount, operator.preAuthorizedAbove) > 0) {
    return 'pre_authorized';
  }
  return operator.workflow;
}

export function isWithinBounds(corridor: CorridorDef, amount: string): boolean {
  if (compareAmounts(amount, corridor.minAmountMajor) < 0) return false;
  return corridor.maxAmountMajor === null || compareAmounts(amount, corridor.maxAmountMajor) <= 0;
}
